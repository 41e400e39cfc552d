"""Result files are written whole or not at all: kopt reads a missing file as "the runner died"."""

import json
import os


def write_json_atomically(path, document):
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as f:
        json.dump(document, f)
    os.replace(temporary, path)


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)
