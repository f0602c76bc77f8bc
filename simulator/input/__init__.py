"""Files in and out: reading and validating scenarios, their schema, imported results,
expectations."""
