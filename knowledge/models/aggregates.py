"""PostgreSQL expressions the ORM lacks: a percentile aggregate and a number read out of a JSON object."""

from __future__ import annotations

from django.db.models import Aggregate, FloatField, Func, Value


class Percentile(Aggregate):
    """percentile_cont(fraction) WITHIN GROUP (ORDER BY expression): the interpolated percentile, NULLs ignored."""

    function = "percentile_cont"
    name = "Percentile"
    output_field = FloatField()
    template = "%(function)s(%(fraction)s) WITHIN GROUP (ORDER BY %(expressions)s)"

    def __init__(self, expression, fraction: float, **extra):
        if not 0.0 <= float(fraction) <= 1.0:
            raise ValueError(f"A percentile fraction is between 0 and 1, not {fraction!r}.")
        # The fraction is a checked float written into the SQL, so the statement groups the same way every time.
        super().__init__(expression, fraction=repr(float(fraction)), **extra)


class JsonNumber(Func):
    """`field -> key` as double precision when that value is a JSON number, else NULL (never a cast error)."""

    output_field = FloatField()

    def __init__(self, field: str, key: str):
        super().__init__(field, Value(key))

    def as_sql(self, compiler, connection, **extra):
        field_sql, field_params = compiler.compile(self.source_expressions[0])
        key_sql, key_params = compiler.compile(self.source_expressions[1])
        sql = (f"CASE WHEN jsonb_typeof({field_sql} -> {key_sql}) = 'number' "
               f"THEN ({field_sql} ->> {key_sql})::double precision END")
        return sql, (*field_params, *key_params, *field_params, *key_params)
