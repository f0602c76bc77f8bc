"""Reading YAML and JSON text into plain data, remembering where things were written.

This package knows nothing of scenarios: it turns text into dicts, lists and scalars, records
the problems a reader can see on its own (malformed text, a repeated key, a tag, an alias to
nothing) with their lines, and afterwards finds the line of any path (``events[3].at``) a later
check complains about. :mod:`simulator.input.loader` holds the scenario schema and uses it.

- :mod:`~simulator.input.parse.trees`: what a reading builds (:class:`Map`, :class:`Seq` with
  their lines).
- :mod:`~simulator.input.parse.yaml_scalars`: YAML scalars as a scenario means them (YAML 1.1's
  octal, base-60 and other oddities kept as the text written; tags refused).
- :mod:`~simulator.input.parse.yaml_reader`: the one-pass YAML reading, problems collected.
- :mod:`~simulator.input.parse.yaml_quick`: the quick reading of a big event log of one-line
  flow mappings, which steps aside whenever anything is in doubt.
- :mod:`~simulator.input.parse.json_reading`: JSON read exactly (Decimals, repeated keys).
- :mod:`~simulator.input.parse.locations`: the line of a path, in a YAML tree or a JSON text.
- :mod:`~simulator.input.parse.long_numbers`: whole numbers too long to write out.
- :mod:`~simulator.input.parse.messages`: raw problems, found values shown, paths named.
"""
