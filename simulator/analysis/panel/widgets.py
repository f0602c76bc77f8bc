"""The what-if panel in Jupyter: ipywidgets controls on the left, the law's answer on the
right, redrawn on every change (``pip install 'electsim[app]'`` or ``[notebook]`` brings
ipywidgets). A moment is a date and a time, to the minute (ipywidgets' naive date-time picker,
in the scenario's zone); events that did not happen can be added, and removed again."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from simulator.analysis.panel.controls import Control, check_moment, local_moment
from simulator.analysis.panel.model import ADDABLE, PanelState, addable_words
from simulator.analysis.panel.render import CSS, outcome_text, outputs_html
from simulator.input.loader import load_scenario
from simulator.model.scenario import Scenario
from simulator.views.markup import escape


def _moment_widget(value: datetime | None, description: str) -> Any:
    """A box for a moment: ipywidgets' naive date-time picker (ipywidgets 8), or a text box
    that takes ``2023-10-19T11:59`` where it is missing."""
    import ipywidgets as w

    style = {"description_width": "initial"}
    layout = w.Layout(width="100%")
    picker = getattr(w, "NaiveDatetimePicker", None)
    if picker is not None:
        return picker(value=value, description=description, style=style, layout=layout)
    text = f"{value:%Y-%m-%dT%H:%M}" if value is not None else ""
    return w.Text(value=text, description=description, style=style, layout=layout)


def _widget_for(c: Control, value: Any) -> Any:
    import ipywidgets as w

    style = {"description_width": "initial"}
    layout = w.Layout(width="100%")
    label = c.label + (" (hypothetical)" if c.hypothetical else "")
    if c.kind == "moment":
        return _moment_widget(value, label)
    if c.kind == "count":
        return w.IntText(value=value, description=label, style=style, layout=layout)
    if c.kind == "switch":
        return w.Checkbox(value=value, description=label, style=style, indent=False)
    return w.Dropdown(
        options=list(c.choices), value=value, description=label, style=style, layout=layout
    )


class WhatIfApp:
    """A what-if panel for one scenario: :attr:`widget` is the ipywidgets box (a notebook
    shows it when the app is the cell's value); :attr:`state` holds the values and results;
    :attr:`inputs` maps each control's key to its widget, so code can drive the panel;
    :meth:`add` and :meth:`remove` add and take away a hypothetical event."""

    def __init__(self, scenario: Scenario) -> None:
        try:
            import ipywidgets as w
        except ImportError:
            raise ImportError(
                "the what-if panel needs ipywidgets: pip install 'electsim[app]' (or run "
                "`electsim app FILE`, which needs nothing more)"
            ) from None

        self.state = PanelState(scenario)
        self.inputs: dict[str, Any] = {}
        self._quiet = False
        self.reset_button = w.Button(description="Reset", icon="undo")
        self.yaml_button = w.Button(
            description="Copy this variant as YAML", icon="copy", layout=w.Layout(width="auto")
        )
        self.reset_button.on_click(lambda _: self.reset())
        self.yaml_button.on_click(lambda _: self.show_yaml())
        self.yaml = w.Textarea(layout=w.Layout(width="100%", height="16em", display="none"))
        self.outputs = {name: w.HTML() for name in outputs_html(self.state)}
        self.timing = w.HTML()
        self.left = w.VBox(
            layout=w.Layout(flex="1 1 320px", max_width="480px", padding="0 12px 0 0")
        )
        self._add_box = self._adding()
        self._fill()
        right = w.VBox(
            [w.HTML(f"<style>{CSS}</style>"), *self.outputs.values(), self.timing],
            layout=w.Layout(flex="2 1 420px", min_width="0"),
        )
        for out in self.outputs.values():
            out.add_class("ws-panel")
        title = w.HTML(f"<h2 style='margin:4px 0'>What if? {self.state.original.title}</h2>")
        # the answer first: on a narrow screen the box wraps, and the answer stays on top
        self.widget = w.VBox(
            [title, w.Box([right, self.left], layout=w.Layout(flex_flow="row-reverse wrap"))]
        )
        self.redraw()

    def _fill(self) -> None:
        """The controls, made afresh from the state (after an event is added or removed)."""
        import ipywidgets as w

        self.inputs = {}
        groups: dict[str, list[Any]] = {}
        added: list[Any] = []
        for key, c in self.state.controls.items():
            widget = _widget_for(c, self.state.values[key])
            widget.observe(self._changed(key), names="value")
            self.inputs[key] = widget
            (added if c.hypothetical else groups.setdefault(c.group, [])).append(widget)
            if c.hypothetical and c.kind == "moment" and c.event is not None:
                button = w.Button(description="Remove this event", icon="trash")
                event = c.event
                button.on_click(lambda _, e=event: self.remove(e))
                added.append(button)
        sections: list[Any] = []
        if added:
            sections.append(w.HTML("<b>Events added here (hypothetical)</b>"))
            sections.extend(added)
        for name, items in groups.items():
            if name == "readings":
                continue
            if name:
                sections.append(w.HTML(f"<b>{name}</b>"))
            sections.extend(items)
        readings = w.Accordion(children=[w.VBox(groups.get("readings", []))])
        readings.set_title(0, "Readings of unclear law (docs/readings.md)")
        readings.selected_index = None
        self.left.children = [
            w.HTML(f"<b>Change a fact</b> (times in {self.state.base.tz}, to the minute)"),
            self._add_box,
            *sections,
            readings,
            w.HBox([self.reset_button, self.yaml_button], layout=w.Layout(flex_flow="row wrap")),
            self.yaml,
        ]

    def _adding(self) -> Any:
        """The boxes that add a hypothetical event."""
        import ipywidgets as w

        style = {"description_width": "initial"}
        layout = w.Layout(width="100%")
        names = list(
            dict.fromkeys(
                e.candidate  # type: ignore[attr-defined]
                for e in self.state.base.events
                if e.type == "candidate_filed"
            )
        )
        last = max((e.at for e in self.state.base.events), default=None)
        self.add_inputs = {
            "type": w.Dropdown(
                options=[(addable_words(t), t) for t in ADDABLE],
                description="What happens",
                style=style,
                layout=layout,
            ),
            "candidate": w.Dropdown(
                options=names or [""],
                description="Who (the winner, for lots)",
                style=style,
                layout=layout,
            ),
            "at": _moment_widget(
                local_moment(last, self.state.base) if last is not None else None, "When"
            ),
            "enough_time": w.Dropdown(
                options=[("yes", "yes"), ("no", "no")],
                description="Enough time to reprint",
                style=style,
                layout=layout,
            ),
        }
        if len(self.state.base.contests) > 1:
            self.add_inputs["contest"] = w.Dropdown(
                options=[(c.label, c.id) for c in self.state.base.contests],
                description="Contest",
                style=style,
                layout=layout,
            )
        button = w.Button(description="Add it", icon="plus")
        button.on_click(
            lambda _: self.add(
                self.add_inputs["type"].value,
                self.add_inputs["at"].value,
                candidate=self.add_inputs["candidate"].value,
                contest=self.add_inputs["contest"].value if "contest" in self.add_inputs else None,
                enough_time=self.add_inputs["enough_time"].value,
            )
        )
        return w.VBox(
            [w.HTML("<b>Add an event that did not happen</b>"), *self.add_inputs.values(), button]
        )

    def _changed(self, key: str) -> Any:
        def handler(change: dict[str, Any]) -> None:
            if self._quiet:
                return
            try:
                self.state.set(key, change["new"])
            except Exception as err:  # nothing raises into the notebook
                self.state.error = f"{type(err).__name__}: {err}"
            self.redraw()

        return handler

    def redraw(self) -> None:
        for name, html in outputs_html(self.state).items():
            self.outputs[name].value = html
        self.timing.value = (
            f'<div class="ws-note">replayed in {self.state.seconds * 1000:.0f} ms</div>'
        )
        if self.yaml.layout.display != "none":
            self.yaml.value = self.state.as_yaml()

    def set(self, control: str, value: Any) -> None:
        """Move a control as a person would (its widget changes, the panel redraws): named by
        its key, or by words of its label (``app.set("Bob died", datetime(2027, 8, 15, 9))``;
        a date alone keeps the event's time of day as written)."""
        key = control if control in self.inputs else self.state.key(control)
        c = self.state.controls[key]
        if c.kind == "moment" and isinstance(value, date | str):
            try:
                value = check_moment(value, c.original, None, None, c.label)
            except Exception as err:  # (shown like any refused value)
                self.state.error = str(err)
                self.redraw()
                return
            if isinstance(self.inputs[key].value, str):  # (the text box, without a picker)
                value = f"{value:%Y-%m-%dT%H:%M}"
        self.inputs[key].value = value

    def add(self, event_type: str, at: Any, **fields: Any) -> bool:
        """Add a hypothetical event (``app.add("candidate_died", datetime(2023, 10, 16, 9),
        candidate="Ryan Eades")``); True when the panel shows the variant with it."""
        try:
            ok = self.state.add(event_type, at, **fields)
        except Exception as err:  # nothing raises into the notebook
            self.state.error, ok = f"{type(err).__name__}: {err}", False
        if ok:
            self._fill()
        self.redraw()
        return ok

    def remove(self, event_id: str) -> bool:
        """Take away the hypothetical event ``event_id`` (``hypothetical-1``)."""
        ok = self.state.remove(event_id)
        if ok:
            self._fill()
        self.redraw()
        return ok

    @property
    def outcome(self) -> str:
        """The outcome the panel shows, as text."""

        return outcome_text(self.state)

    def reset(self) -> None:
        had = bool(self.state.added)
        self.state.reset()
        if had:
            self._fill()
        else:
            self._quiet = True
            try:
                for key, c in self.state.controls.items():
                    self.inputs[key].value = (
                        f"{c.original:%Y-%m-%dT%H:%M}"
                        if c.kind == "moment" and isinstance(self.inputs[key].value, str)
                        else c.original
                    )
            finally:
                self._quiet = False
        self.redraw()

    def show_yaml(self) -> str:
        """Show (and return) the variant as a scenario file."""
        text = self.state.as_yaml()
        self.yaml.value = text
        self.yaml.layout.display = "block"
        return text

    def snapshot(self) -> Snapshot:
        """What the panel shows now (the outcome and what it assumes, where it flips, the
        rulings, the deadlines that moved, the timeline) as plain HTML: a picture of its outputs
        that stays in a notebook exported to HTML, where the live widgets need a kernel (or the
        widget scripts from the network) to show."""
        outputs = "".join(
            f'<div class="ws-panel">{html}</div>' for html in outputs_html(self.state).values()
        )
        title = escape(self.state.original.title)
        return Snapshot(
            f"<style>{CSS}</style><div class='electsim-snapshot'>"
            f"<h3 style='margin:4px 0'>The panel now: {title}</h3>{outputs}</div>"
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


class Snapshot:
    """HTML that a notebook shows as it is (:meth:`WhatIfApp.snapshot`)."""

    def __init__(self, html: str) -> None:
        self.html = html

    def _repr_html_(self) -> str:
        return self.html


def whatif_app(scenario: Scenario | str) -> WhatIfApp:
    """A what-if panel for ``scenario`` (a Scenario, or the path of a scenario file): move a
    moment (date and time), a count, a requester or a reading, or add an event that did not
    happen, and watch the outcome, what it assumes, the rulings, the deadlines and the timeline
    answer; a strip shows where the outcome flips along the control moved, to the minute. In a
    notebook, ``simulator.whatif_app("scenarios/runoff/cary-2023-district-d.yaml")`` as the last
    line of a cell shows the panel; ``app.set("Bob died", datetime(2027, 8, 15, 9))`` moves a
    control from code, ``app.add("candidate_died", datetime(2023, 10, 16, 9),
    candidate="Ryan Eades")`` adds an event."""
    if isinstance(scenario, str):
        scenario = load_scenario(scenario)
    return WhatIfApp(scenario)
