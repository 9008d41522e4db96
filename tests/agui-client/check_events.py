"""Validates AG-UI events (a JSON array on stdin) against the `ag-ui-protocol` models.

Each event is read by the model its `type` names, strictly: an unknown key or a wrong type is an
error (the models themselves allow extra keys). Prints one line per problem and
"N events valid"; exits 1 on any problem.
"""

import json
import sys

from ag_ui.core import events
from pydantic import TypeAdapter, ValidationError

ADAPTER = TypeAdapter(events.Event)


def main() -> int:
    problems = 0
    items = json.load(sys.stdin)
    for i, item in enumerate(items):
        try:
            event = ADAPTER.validate_python(item)
        except ValidationError as error:
            print(f"event {i} ({item.get('type')}): {error}")
            problems += 1
            continue
        fields = type(event).model_fields
        known = {field.alias or name for name, field in fields.items()} | set(fields)
        unknown = sorted(set(item) - known)
        if unknown:
            print(f"event {i} ({item.get('type')}): keys the model does not know: {unknown}")
            problems += 1
    print(f"{len(items)} events valid" if problems == 0 else f"{problems} of {len(items)} events invalid")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
