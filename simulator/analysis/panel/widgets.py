"""The what-if panel in Jupyter: ipywidgets controls on the left, the law's answer on the
right, redrawn on every change (``pip install 'electsim[app]'`` or ``[notebook]`` brings
ipywidgets)."""

from __future__ import annotations

from typing import Any

from simulator.analysis.panel.controls import Control
from simulator.analysis.panel.model import PanelState
from simulator.analysis.panel.render import CSS, outcome_text, outputs_html
from simulator.input.loader import load_scenario
from simulator.model.scenario import Scenario


def _widget_for(c: Control) -> Any:
    import ipywidgets as w

    style = {"description_width": "initial"}
    layout = w.Layout(width="100%")
    if c.kind == "date":
        return w.DatePicker(
            value=c.original, description=c.label, style=style, layout=layout, disabled=False
        )
    if c.kind == "count":
        return w.IntText(value=c.original, description=c.label, style=style, layout=layout)
    if c.kind == "switch":
        return w.Checkbox(value=c.original, description=c.label, style=style, indent=False)
    return w.Dropdown(
        options=list(c.choices),
        value=c.original,
        description=c.label,
        style=style,
        layout=layout,
    )


class WhatIfApp:
    """A what-if panel for one scenario: :attr:`widget` is the ipywidgets box (a notebook
    shows it when the app is the cell's value); :attr:`state` holds the values and results;
    :attr:`inputs` maps each control's key to its widget, so code can drive the panel."""

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
        groups: dict[str, list[Any]] = {}
        for key, c in self.state.controls.items():
            widget = _widget_for(c)
            widget.observe(self._changed(key), names="value")
            self.inputs[key] = widget
            groups.setdefault(c.group, []).append(widget)
        sections: list[Any] = []
        for name, items in groups.items():
            if name == "readings":
                continue
            if name:
                sections.append(w.HTML(f"<b>{name}</b>"))
            sections.extend(items)
        readings = w.Accordion(children=[w.VBox(groups.get("readings", []))])
        readings.set_title(0, "Readings of unclear law (docs/readings.md)")
        readings.selected_index = None
        self.reset_button = w.Button(description="Reset", icon="undo")
        self.yaml_button = w.Button(
            description="Copy this variant as YAML", icon="copy", layout=w.Layout(width="auto")
        )
        self.reset_button.on_click(lambda _: self.reset())
        self.yaml_button.on_click(lambda _: self.show_yaml())
        self.yaml = w.Textarea(layout=w.Layout(width="100%", height="16em", display="none"))
        self.outputs = {name: w.HTML() for name in outputs_html(self.state)}
        self.timing = w.HTML()
        left = w.VBox(
            [
                w.HTML("<b>Change a fact</b>"),
                *sections,
                readings,
                w.HBox(
                    [self.reset_button, self.yaml_button], layout=w.Layout(flex_flow="row wrap")
                ),
                self.yaml,
            ],
            layout=w.Layout(flex="1 1 320px", max_width="480px", padding="0 12px 0 0"),
        )
        right = w.VBox(
            [w.HTML(f"<style>{CSS}</style>"), *self.outputs.values(), self.timing],
            layout=w.Layout(flex="2 1 420px", min_width="0"),
        )
        for out in self.outputs.values():
            out.add_class("ws-panel")
        title = w.HTML(f"<h2 style='margin:4px 0'>What if? {self.state.original.title}</h2>")
        self.widget = w.VBox([title, w.Box([left, right], layout=w.Layout(flex_flow="row wrap"))])
        self.redraw()

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
        its key, or by words of its label (``app.set("Bob died", date(2027, 8, 15))``)."""
        key = control if control in self.inputs else self.state.key(control)
        self.inputs[key].value = value

    @property
    def outcome(self) -> str:
        """The outcome the panel shows, as text."""

        return outcome_text(self.state)

    def reset(self) -> None:
        self._quiet = True
        try:
            for key, c in self.state.controls.items():
                self.inputs[key].value = c.original
        finally:
            self._quiet = False
        self.state.reset()
        self.redraw()

    def show_yaml(self) -> str:
        """Show (and return) the variant as a scenario file."""
        text = self.state.as_yaml()
        self.yaml.value = text
        self.yaml.layout.display = "block"
        return text

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


def whatif_app(scenario: Scenario | str) -> WhatIfApp:
    """A what-if panel for ``scenario`` (a Scenario, or the path of a scenario file): move a
    date, a count, a requester or a reading and watch the outcome, the rulings, the deadlines
    and the timeline answer; a strip shows where the outcome flips along the control moved.
    In a notebook, ``simulator.whatif_app("scenarios/runoff/cary-2023-district-d.yaml")`` as
    the last line of a cell shows the panel; ``app.set("Bob died", date(2027, 8, 15))`` moves
    a control from code."""
    if isinstance(scenario, str):
        scenario = load_scenario(scenario)
    return WhatIfApp(scenario)
