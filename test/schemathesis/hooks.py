"""Checks for an API that answers every request with HTTP 200 and a JSON object, a failure being
{"error", "error_code"}: the meaning of schemathesis' status-code checks, read from the body.

Loaded by schemathesis.toml (schemathesis 4.32.5). Also moves a map id that a link put into the
X-Link-Map-Id carrier header into the JSON argument header of a file operation (an OpenAPI link
cannot write inside a header's JSON; the test adds the carrier to the document's links).
"""
from __future__ import annotations

import copy
import json
import os

import requests

import schemathesis
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import REQUEST_SHAPE_PROBES, CoveragePhaseData, CoverageScenario, coverage_scenario

ARG_HEADER = "Service-API-Arg"
LINK_HEADER = "X-Link-Map-Id"
# The codes that mean "the request does not match the documented schema".
SCHEMA_REFUSALS = {"invalid_arguments", "invalid_json"}


def _body(response):
    try:
        data = json.loads(response.content)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _error_code(response):
    body = _body(response)
    return body.get("error_code") if body else None


def _describe(case) -> str:
    meta = case.meta
    if meta is None:
        return "no metadata"
    data = meta.phase.data
    negative = [location.value for location, info in meta.components.items() if info.mode.is_negative]
    parts = [f"phase={meta.phase.name.value}", f"mode={meta.generation.mode.value}", f"negative={negative}"]
    if isinstance(data, CoveragePhaseData):
        parts.append(f"scenario={data.scenario.value}")
    if data.parameter_location is not None:
        parts.append(f"{data.parameter_location.value} {data.parameter!r}")
    if data.description:
        parts.append(data.description)
    return "; ".join(parts)


@schemathesis.hook
def before_call(context, case, kwargs):
    """A link's map id, carried in X-Link-Map-Id, goes into the JSON argument header."""
    if not case.headers or LINK_HEADER not in case.headers:
        return
    meta = case.meta  # read before editing: reading it after an edit re-validates the case
    map_id = case.headers.pop(LINK_HEADER)
    if meta is not None and meta.is_negative_at(ParameterLocation.HEADER):
        return
    try:
        arguments = json.loads(case.headers.get(ARG_HEADER, "null"))
    except (TypeError, ValueError):
        return
    if isinstance(arguments, dict):
        arguments["map_id"] = map_id
        case.headers[ARG_HEADER] = json.dumps(arguments)
    # The edited header would be checked again as a string against the object schema and the case
    # labelled negative; the id is valid, so the labels made at generation stay (4.32.5 internals).
    case._sync_validated_hashes()


@schemathesis.check
def json_envelope(ctx, response, case):
    """Every answer: HTTP 200, a JSON object; `error` and `error_code` come together."""
    assert response.status_code == 200, f"HTTP {response.status_code}"
    content_type = response.headers.get("content-type", [""])[0]
    assert content_type.split(";")[0].strip() == "application/json", f"Content-Type {content_type!r}"
    body = _body(response)
    assert body is not None, "the body is not a JSON object"
    assert ("error" in body) == ("error_code" in body), "`error` and `error_code` must come together"


@schemathesis.check
def negative_data_gets_error(ctx, response, case):
    """A request that breaks the schema is answered with `error` (the built-in check, on a copy of
    the answer whose status says what the body says: 400 with `error`, 200 without)."""
    if response.status_code != 200:
        return None
    shadow = copy.copy(response)
    shadow.status_code = 400 if _error_code(response) else 200
    try:
        return schemathesis.checks.negative_data_rejection(ctx, shadow, case)
    except AssertionError as error:
        raise AssertionError(f"a request breaking the schema was answered without `error`: {response.text[:300]}\n{_describe(case)}") from error


@schemathesis.check
def positive_data_not_refused_as_invalid(ctx, response, case):
    """A request the schema allows is never refused as not matching it (invalid_arguments, invalid_json).
    Other refusals are the API's own rules on valid shapes: no such map, a file that is not what
    file_type says, a ring that is not closed."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or coverage_scenario(case) in REQUEST_SHAPE_PROBES:
        return None
    code = _error_code(response)
    assert code not in SCHEMA_REFUSALS, f"a request the schema allows was refused with {code}: {response.text[:300]}\n{_describe(case)}"


@schemathesis.check
def unsupported_method_gets_error(ctx, response, case):
    """Methods other than POST are answered method_not_allowed."""
    if coverage_scenario(case) != CoverageScenario.UNSPECIFIED_HTTP_METHOD:
        return None
    code = _error_code(response)
    assert code == "method_not_allowed", f"{response.request.method} answered with error_code={code!r}"


@schemathesis.check
class auth_error_codes:
    """No key: missing_api_key; a wrong key: invalid_api_key. Once per operation, after a success,
    the same request is sent again without the key and with a wrong one."""

    def __init__(self):
        self.valid_key = "Token " + os.environ["MAP_API_KEY"]
        self.verified: set[str] = set()

    def after_response(self, ctx, response, case):
        if coverage_scenario(case) == CoverageScenario.UNSPECIFIED_HTTP_METHOD:
            return None
        sent = response.request.headers.get("Authorization")
        code = _error_code(response)
        if sent is None:
            assert code == "missing_api_key", f"a request without Authorization got error_code={code!r}"
            return None
        if sent != self.valid_key:
            assert code == "invalid_api_key", f"a request with a wrong key got error_code={code!r}"
            return None
        label = case.operation.label
        if label in self.verified or _body(response) is None or code is not None:
            return None
        self.verified.add(label)
        for value, expected in ((None, "missing_api_key"), ("Token mps_AAAAAAAAAA_" + "x" * 43, "invalid_api_key")):
            probe = response.request.copy()
            if value is None:
                del probe.headers["Authorization"]
            else:
                probe.headers["Authorization"] = value
            with requests.Session() as session:
                answer = session.send(probe, timeout=60)
            try:
                got = answer.json().get("error_code")
            except ValueError:
                got = None
            assert got == expected, f"{'no' if value is None else 'a wrong'} API key: expected {expected}, got HTTP {answer.status_code} {answer.text[:200]!r}"
        return None


@schemathesis.check
class created_maps_stay_available:
    """A map map/upload made is never answered map_not_found afterwards (no operation deletes maps)."""

    def __init__(self):
        self.created: set[int] = set()

    def after_response(self, ctx, response, case):
        body = _body(response) or {}
        if case.operation.path == "/api/1/map/upload" and "error" not in body and "id" in body:
            self.created.add(body["id"])
            return None
        if body.get("error_code") != "map_not_found":
            return None
        if isinstance(case.body, dict):
            map_id = case.body.get("map_id")
        else:
            try:
                map_id = json.loads(response.request.headers.get(ARG_HEADER, "")).get("map_id")
            except (ValueError, AttributeError):
                map_id = None
        try:
            map_id = int(map_id)
        except (TypeError, ValueError):
            return None
        assert map_id not in self.created, f"map {map_id}, made by map/upload, is now map_not_found"


@schemathesis.check
def no_internal_error(ctx, response, case):
    """Nothing a client sends makes the service fail inside (internal_error is for our bugs)."""
    code = _error_code(response)
    assert code != "internal_error", f"internal_error: {response.text[:300]}\n{_describe(case)}"
