"""The law: citations, vocabularies, readings, dated values, the calendar, the state machine's
phases and the rule tables."""
