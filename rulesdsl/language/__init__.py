"""The rules language: YAML reading, the expression grammar, the schema, the compiler."""
