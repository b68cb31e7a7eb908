#!/usr/bin/env python3
"""validate.py SCHEMA FILE: checks each JSON line of FILE against the component schema SCHEMA of
Sources/TaskService/openapi.yaml (OpenAPI 3.0's `nullable` read as JSON Schema's null type), with jsonschema-rs
(from the schemathesis venv). Prints one JSON line per instance: {"valid": true} or {"valid": false, "errors": [...]}."""
import json
import os
import sys

import jsonschema_rs
import yaml

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "..", "Sources", "TaskService", "openapi.yaml"), encoding="utf-8") as spec:
    components = yaml.safe_load(spec)["components"]["schemas"]


def to_json_schema(node):
    if isinstance(node, list):
        return [to_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: to_json_schema(value) for key, value in node.items()}
    if "$ref" in node:
        node["$ref"] = node["$ref"].replace("#/components/schemas/", "#/$defs/")
    if node.pop("nullable", False):
        if "type" in node:
            node["type"] = [node["type"], "null"]
        if "enum" in node:
            node["enum"] = node["enum"] + [None]
    return node


definitions = {name: to_json_schema(schema) for name, schema in components.items()}
schema = dict(definitions[sys.argv[1]])
schema["$defs"] = definitions
validator = jsonschema_rs.Draft202012Validator(schema)
for line in open(sys.argv[2], encoding="utf-8"):
    instance = json.loads(line)
    errors = [f"{list(error.instance_path)}: {error.message}" for error in validator.iter_errors(instance)]
    print(json.dumps({"valid": not errors, "errors": errors}), flush=True)
