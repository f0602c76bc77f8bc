"""An interactive what-if panel: one control per fact a person would vary (the date of each
event, the votes in each return, who requested a runoff, the readings), and the law's answer
redrawn on every change: the outcome, the rulings that differ from the scenario as written,
the deadlines that moved, the timeline, and where the outcome flips along the control moved.

:mod:`~simulator.analysis.panel.controls` finds the controls and builds a variant,
:mod:`~simulator.analysis.panel.model` holds the values and the last good replay,
:mod:`~simulator.analysis.panel.render` writes the outputs as HTML, and
:mod:`~simulator.analysis.panel.widgets` shows them in Jupyter; ``electsim app`` serves the same
panel as a page (:mod:`simulator.cli.app`).
"""
