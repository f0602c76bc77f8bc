"""The sizes a timeline is laid out with: its resolution and width, the font sizes in
points, and the heights, depths and widths of its parts in inches."""

from __future__ import annotations

# Layout, in inches: the y axis of the chart is measured in inches from the top of the lanes and
# the x axis in inches from the left of the time axis, so that stacking labels is arithmetic.
DPI = 110
WIDTH_PX = 1430  # 13 inches at 110 dpi
TITLE_PT = 12.0
DESC_PT = 7.5
LANE_TITLE_PT = 8.5
SUBTITLE_PT = 6.5
OUTCOME_PT = 8.0
LABEL_PT = 7.0
TICK_PT = 7.5
LEGEND_PT = 7.0
SPACING = 1.2  # line spacing, as a multiple of the font size
LINE_H = LABEL_PT * SPACING / 72
BAND_H = 0.2
STRIP_H = 0.07
TICK_OUT = 0.06  # how far a deadline tick reaches beyond the band
LANE_PAD = 0.14
ABOVE_DEPTH = 1.15  # how far labels may stack above a lane's band, in inches
BELOW_DEPTH = 1.8  # below it (a round's votes take a line a candidate)
HEADER_DEPTH = 0.9
MARGIN = 0.12  # around the figure's edge
GAP_DAYS = 14.0  # a stretch this long with nothing in it may be folded
SPAN_PAD = 2.5  # days kept on either side of what happened, before a fold
GAP_W = 0.34  # the width of a fold, in inches
MIN_SPAN_W = 0.7  # the least width a stretch of the axis gets, in inches
FOLD_SHARE = 1 / 3  # fold by default when the foldable stretches are this share of the span
