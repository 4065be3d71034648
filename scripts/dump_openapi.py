"""Print the API's OpenAPI document (the frontend's types are generated from it)."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend"))

from kneeboard.main import create_app  # noqa: E402

if __name__ == "__main__":
    print(json.dumps(create_app().openapi(), indent=1, sort_keys=True))
