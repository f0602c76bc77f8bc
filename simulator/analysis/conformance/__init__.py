"""Conformance: the engine against what happened in North Carolina, 2011-2025.

The real results files are replayed contest by contest and each verdict is checked against the
ballot that followed (``electsim conformance``, docs/cli.md):

* :mod:`~simulator.analysis.conformance.runoffs`: the October elections of the runoff towns
  against November (:func:`~simulator.analysis.conformance.runoffs.run_conformance`);
* :mod:`~simulator.analysis.conformance.primaries`: nonpartisan and partisan primaries against
  the next ballot, and :mod:`~simulator.analysis.conformance.town_methods`, the towns whose
  method the data README lists wrongly or omits;
* :mod:`~simulator.analysis.conformance.published_dates`: the calendar against published dates;
* :mod:`~simulator.analysis.conformance.report`: the report, as text, Markdown or plain data;

and what they share: :mod:`~simulator.analysis.conformance.data` (the years, the towns, the
results files, read once), :mod:`~simulator.analysis.conformance.matching` (offices, candidates,
towns, kinds of October contest), :mod:`~simulator.analysis.conformance.replaying` and
:mod:`~simulator.analysis.conformance.wording`.
"""
