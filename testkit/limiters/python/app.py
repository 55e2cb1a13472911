"""The Animal Store as a Python team builds it: FastAPI + slowapi with slowapi's stock settings.

- limits: one dynamic limit per key, "<perMinute> per <m> second;<perDay> per <d> second" (fixed windows
  of the `limits` library's memory storage: a key's window starts at its first request after the last
  one ended);
- headers_enabled=True: X-RateLimit-Limit/-Remaining/-Reset as slowapi writes them (Reset = 1 + the
  window's expiry, a decimal Unix time such as 1795501051.808396; the limit reported is the first one on
  an admitted request, the refusing one on a 429), Retry-After as int(reset - now);
- the stock 429 handler (_rate_limit_exceeded_handler: {"error": "Rate limit exceeded: ..."});
- uvicorn's own Date header (refreshed about once a second).
Plans and keys come from the LIMITER_CONFIG environment variable (JSON), resolved from spec/plans.ts by
testkit/limiters/python.ts, so no figure is written twice. A test kit: petcert never imports it.

LIMITER_CONFIG "strategy": "moving-window" (testkit/limiters/start.ts service slowapi-moving-window) sets
slowapi's Limiter(strategy="moving-window"): limits' MovingWindowRateLimiter on its memory storage, a log of
each request of the last window; Reset = 1 + the OLDEST counted request's expiry (get_window_stats).
"strategy": "sliding-window-counter" (service slowapi-sliding-counter) sets limits' SlidingWindowCounterRateLimiter
on its memory storage: windows aligned to the Unix epoch (window k = [k·w, (k+1)·w)), a request admitted while
floor(previous count × time left in the current window / w + current count) < the figure, refused requests not
counted; Reset = 1 + now + the sooner of when the weighted previous count next drops by one and the current
window's end (get_window_stats); Retry-After = int(Reset - now), so the 1 s slowapi adds, rounded down.
"""

import itertools
import json
import os
import time

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from slowapi import Limiter, _rate_limit_exceeded_handler
from slowapi.errors import RateLimitExceeded

CONFIG = json.loads(os.environ["LIMITER_CONFIG"])
WINDOWS = CONFIG["windows"]  # {"minuteSeconds": m, "daySeconds": d}
KEYS = CONFIG["keys"]  # key -> {"perMinute": n, "perDay": n}
ANONYMOUS = CONFIG["anonymous"]  # {"perMinute": n}: what a 401 reports
STATUSES = ("available", "pending", "sold")
INT64 = (-(2**63), 2**63 - 1)
CODES = {400: "BAD_REQUEST", 401: "UNAUTHORIZED", 404: "NOT_FOUND", 429: "RATE_LIMITED"}


def bearer_key(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


# Faulty twins (testkit/limiters/faults.ts): "overAdmit" (minute figure + 1), "noDay" (no day limit),
# "wrongRemaining" (+1 on admitted answers), "noRetryAfter" (the 429 without Retry-After).
FAULT = CONFIG.get("fault")


def plan_limits(key: str) -> str:
    plan = KEYS[key]
    minute = f"{plan['perMinute'] + (1 if FAULT == 'overAdmit' else 0)} per {WINDOWS['minuteSeconds']} second"
    day = f"{plan['perDay']} per {WINDOWS['daySeconds']} second"
    return minute if FAULT == "noDay" else f"{minute};{day}"


# slowapi's default ("fixed-window") unless the config names another of limits' strategies.
STRATEGY = CONFIG.get("strategy") or "fixed-window"
limiter = Limiter(key_func=bearer_key, headers_enabled=True, strategy=STRATEGY)
app = FastAPI()
app.state.limiter = limiter
app.add_exception_handler(RateLimitExceeded, _rate_limit_exceeded_handler)


def plan_of(request: Request) -> dict | None:
    return KEYS.get(bearer_key(request))


if FAULT in ("wrongRemaining", "noRetryAfter", "overAdmit"):

    @app.middleware("http")
    async def faulty_headers(request: Request, call_next):
        response = await call_next(request)
        if FAULT == "noRetryAfter" and response.status_code == 429 and "retry-after" in response.headers:
            del response.headers["retry-after"]
        remaining = response.headers.get("x-ratelimit-remaining")
        if FAULT == "wrongRemaining" and response.status_code < 400 and remaining is not None:
            response.headers["x-ratelimit-remaining"] = str(int(remaining) + 1)
        plan = plan_of(request)
        over = plan is not None and response.headers.get("x-ratelimit-limit") == str(plan["perMinute"] + 1)
        if FAULT == "overAdmit" and over and remaining is not None:
            # The headers still report the plan (as the Node twins): only the admission is wrong.
            response.headers["x-ratelimit-limit"] = str(plan["perMinute"])
            response.headers["x-ratelimit-remaining"] = str(max(0, int(remaining) - 1))
        return response


def error(status: int, message: str, headers: dict | None = None) -> JSONResponse:
    body = {"code": CODES[status], "message": message, "status": status}
    return JSONResponse(body, status_code=status, headers=headers)


@app.exception_handler(HTTPException)
async def http_error(_request: Request, exc: HTTPException) -> JSONResponse:
    headers = dict(exc.headers or {})
    if exc.status_code == 401:
        # Section 8.2 wants the headers on every response: an unknown caller's untouched free minute.
        headers.update({
            "X-RateLimit-Limit": str(ANONYMOUS["perMinute"]),
            "X-RateLimit-Remaining": str(ANONYMOUS["perMinute"]),
            "X-RateLimit-Reset": str(int(time.time()) + WINDOWS["minuteSeconds"]),
        })
    return error(exc.status_code, str(exc.detail), headers)


def authenticated(request: Request) -> str:
    """Section 5: 401 before the limiter (an unknown caller has no quota)."""
    key = bearer_key(request)
    if key not in KEYS:
        raise HTTPException(401, "invalid API key" if key else "missing API key", {"WWW-Authenticate": "Bearer"})
    return key


PETS: dict[int, dict] = {}
NEXT_ID = itertools.count(1)


def is_int64(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and INT64[0] <= value <= INT64[1]


def new_pet_problem(body) -> str | None:
    if not isinstance(body, dict):
        return "NewPet must be a JSON object"
    if not isinstance(body.get("name"), str):
        return "name must be a string"
    if not is_int64(body.get("categoryId")):
        return "categoryId must be an int64 integer"
    if "status" in body and body["status"] not in STATUSES:
        return f"status must be one of {', '.join(STATUSES)}"
    return None


@app.get("/v1/pets")
@limiter.limit(plan_limits)
async def list_pets(request: Request, _key: str = Depends(authenticated)):
    raw_limit = request.query_params.get("limit", "20")
    status = request.query_params.get("status")
    if not raw_limit.isdigit() or not 1 <= int(raw_limit) <= 100:
        return error(400, "limit must be an integer from 1 to 100")
    if status is not None and status not in STATUSES:
        return error(400, f"status must be one of {', '.join(STATUSES)}")
    pets = [p for p in PETS.values() if status is None or p.get("status") == status]
    return JSONResponse(pets[: int(raw_limit)])


@app.post("/v1/pets")
@limiter.limit(plan_limits)
async def create_pet(request: Request, _key: str = Depends(authenticated)):
    # The body is validated after the limiter, so a 400 carries the rate-limit headers too.
    try:
        body = json.loads(await request.body())
    except ValueError:
        return error(400, "the body is not JSON")
    problem = new_pet_problem(body)
    if problem:
        return error(400, problem)
    pet = {"id": next(NEXT_ID), "name": body["name"], "categoryId": body["categoryId"], "status": body.get("status")}
    PETS[pet["id"]] = pet
    return JSONResponse(pet, status_code=201, headers={"Location": f"/v1/pets/{pet['id']}"})


@app.get("/v1/pets/{pet_id}")
@limiter.limit(plan_limits)
async def get_pet(request: Request, pet_id: str, _key: str = Depends(authenticated)):
    try:
        number = int(pet_id)
    except ValueError:
        return error(400, "petId must be an int64 integer")
    pet = PETS.get(number)
    return JSONResponse(pet) if pet else error(404, f"no pet with id {number}")
