"""Timeline charts of a replay: one lane per contest, read only from a :class:`Result`.

Each lane shows the periods of a contest as coloured bands (the filing period, a reopened or
extended filing period, the window to request a runoff, the window for a tied candidate to
withdraw) with a hatched strip from the day the ballots were printed onward; the events of the
log as marks, one per kind and day with a count (fifteen filings on three days are three marks
captioned "5 filed"); every deadline as a vertical tick labelled with its citation, and a
G.S. 103-5 move as a red arrow from the day the statute names to the day the office is next open;
at each declared result the votes (with shares) and the threshold a candidate had to pass. The
outcome is written in full at the end of the lane.

The time axis spends its width on what happened: a stretch of more than two weeks where nothing
happens in any lane is folded to a narrow break (marked on the axis with its length in days),
on by default when such stretches take a third of the span or more (``compress=``). Each month
is named on the axis where it starts or where a stretch of the axis begins.

Labels never pile up or leave the figure: each goes as close as it can to its tick (above) or
its mark (below), to its right or else its left, where it overlaps no other label; every caption
hangs from its mark by a dotted leader, and a deadline's label moved up from its tick gets one
too. Events' captions are placed before a round's votes, so they stay nearest their marks. Marks
that would cover each other (a withdrawal and a runoff request on one afternoon) are drawn side
by side. An event's caption that only repeats its deadline's label (a canvass held on the
canvass day) is left out. A label that finds no room is thinned to a number, and the note with
its text is written under the chart. A deadline that several lanes share is labelled once, in a
header above the lanes. Titles, descriptions and outcomes are wrapped to the width they have,
measured with the font, never cut; the outcomes' column is as wide as they need.

A death the board heard of on a later day is marked on the day of the death and captioned with
both days ("Cy died Aug 14 (notified Aug 17)"; it needs the ``scenario``, whose log holds both).
In an election that follows a primary of the same office, the nominees carried onto its ballot
(logged as filings in the election) are marked as carried from the primary, and its filing band
is drawn as the primary's filing period: nobody files for the election itself.

Deadlines and periods are named in words (:func:`simulator.law.labels.label`).

Rendering uses matplotlib's object API (:class:`~simulator.views.charts.figures.Chart`, a
Figure on an Agg canvas that shows itself in Jupyter), never ``pyplot``, so it needs no display.
matplotlib is imported by the functions that draw (and :mod:`~simulator.views.charts.figures`,
whose :class:`~simulator.views.charts.figures.Chart` is a matplotlib Figure, with it), so that
reading a result does without it. SVG output keeps text as text
(``svg.fonttype = "none"``): labels and citations can be searched in the file.

The package holds one job a module: the sizes (:mod:`~simulator.views.charts.dimensions`), the
colours and marks (:mod:`~simulator.views.charts.styles`), measuring and wrapping text
(:mod:`~simulator.views.charts.text_measure`), reading a contest into a lane
(:mod:`~simulator.views.charts.lanes`), the time axis (:mod:`~simulator.views.charts.time_axis`),
placing labels (:mod:`~simulator.views.charts.labels`), drawing a lane
(:mod:`~simulator.views.charts.lane_drawing`), the whole timeline
(:mod:`~simulator.views.charts.timeline`), a sweep's chart
(:mod:`~simulator.views.charts.sweep_plot`), and the figure and its files
(:mod:`~simulator.views.charts.figures`).

>>> from simulator.engine.result import Result
>>> fig = plot_timeline(Result("Nothing yet", ()))
>>> [t.get_text() for t in fig.axes[0].texts]
['no contests']
"""

from simulator.views.charts.timeline import plot_timeline

__all__ = ["plot_timeline"]
