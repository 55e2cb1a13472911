// The Animal Store as a Go team builds it: chi and a rate-limit library with its stock settings, chosen by
// LIMITER_CONFIG's "library": go-chi/httprate (below), sethvargo/go-limiter (goLimiter) or ulule/limiter
// (ululeLimiter). With httprate:
//
//   - one httprate.RateLimiter per key and quota (the plan's minute and day figures), chained minute then
//     day: each writes its own X-RateLimit-* (the day's on a 200, the refusing one's on a 429);
//   - httprate's in-memory LocalLimitCounter: a sliding window counter (the previous window's count
//     weighted by the time left in the current one, rounded to the nearest whole request), windows
//     aligned to the limiter's own start instant, refused requests not counted;
//   - X-RateLimit-Reset = the current window's end as time.Unix() (rounded down to the whole second),
//     Retry-After = the window's length on every 429, the stock 429 body (text/plain);
//   - Go's own Date header.
//
// Plans and keys come from LIMITER_CONFIG (JSON), resolved from spec/plans.ts by testkit/limiters/go.ts,
// so no figure is written twice. A test kit: petcert never imports it.
package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/httprate"
	"github.com/sethvargo/go-limiter/httplimit"
	"github.com/sethvargo/go-limiter/memorystore"
	ulule "github.com/ulule/limiter/v3"
	"github.com/ulule/limiter/v3/drivers/middleware/stdlib"
	"github.com/ulule/limiter/v3/drivers/store/memory"
)

type plan struct {
	PerMinute int `json:"perMinute"`
	PerDay    int `json:"perDay"`
}

type config struct {
	Windows struct {
		MinuteSeconds float64 `json:"minuteSeconds"`
		DaySeconds    float64 `json:"daySeconds"`
	} `json:"windows"`
	Keys      map[string]plan `json:"keys"`
	Anonymous struct {
		PerMinute int `json:"perMinute"`
	} `json:"anonymous"`
	// Faulty twins (testkit/limiters/faults.ts): overAdmit, noDay, wrongRemaining, noRetryAfter.
	Fault string `json:"fault"`
	// "httprate" (the default), "go-limiter" or "ulule".
	Library string `json:"library"`
}

var statuses = map[string]bool{"available": true, "pending": true, "sold": true}
var codes = map[int]string{400: "BAD_REQUEST", 401: "UNAUTHORIZED", 404: "NOT_FOUND"}

func bearer(r *http.Request) string {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

func writeError(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"code": codes[status], "message": message, "status": status})
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// faulty rewrites the head of a response just before it is written: the twins' faults, applied around
// the library, never inside it.
type faulty struct {
	http.ResponseWriter
	fault string
	plan  plan
	done  bool
}

func (f *faulty) WriteHeader(status int) {
	if !f.done {
		f.done = true
		h := f.Header()
		remaining, err := strconv.Atoi(h.Get("X-RateLimit-Remaining"))
		switch {
		case f.fault == "noRetryAfter" && status == 429:
			h.Del("Retry-After")
		case f.fault == "wrongRemaining" && status < 400 && err == nil:
			h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining+1))
		case f.fault == "overAdmit" && err == nil && h.Get("X-RateLimit-Limit") == strconv.Itoa(f.plan.PerMinute+1):
			// The headers still report the plan (as the Node twins): only the admission is wrong.
			h.Set("X-RateLimit-Limit", strconv.Itoa(f.plan.PerMinute))
			h.Set("X-RateLimit-Remaining", strconv.Itoa(max(0, remaining-1)))
		}
	}
	f.ResponseWriter.WriteHeader(status)
}

func (f *faulty) Write(b []byte) (int, error) {
	if !f.done {
		f.WriteHeader(http.StatusOK)
	}
	return f.ResponseWriter.Write(b)
}

// A limiter answers a request on its key: true when it wrote the 429.
type limiter func(w http.ResponseWriter, r *http.Request, key string) bool

type quotas struct{ minute, day limiter }

// fromMiddleware runs a library's own HTTP middleware as a limiter: it refused when it did not call the next handler.
func fromMiddleware(wrap func(http.Handler) http.Handler) limiter {
	return func(w http.ResponseWriter, r *http.Request, key string) bool {
		passed := false
		wrap(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { passed = true })).ServeHTTP(w, r)
		return !passed
	}
}

func httprateLimiter(limit int, window time.Duration) limiter {
	return httprate.NewRateLimiter(limit, window).RespondOnLimit
}

// goLimiter runs sethvargo/go-limiter's own HTTP middleware over its memorystore: a bucket per key refilled
// whole at each interval counted from the key's first request; X-RateLimit-Reset and Retry-After are that
// interval's end as an RFC 1123 date (whole seconds, rounded down).
func goLimiter(limit int, window time.Duration) limiter {
	store, err := memorystore.New(&memorystore.Config{Tokens: uint64(limit), Interval: window})
	if err != nil {
		panic(err)
	}
	middleware, err := httplimit.NewMiddleware(store, func(r *http.Request) (string, error) { return bearer(r), nil })
	if err != nil {
		panic(err)
	}
	return fromMiddleware(middleware.Handle)
}

// ululeLimiter runs ulule/limiter's stdlib middleware over its memory store: a count from the key's first
// request that expires a period later (refused requests counted too); X-RateLimit-* added (not set) by each
// middleware, Reset the expiry as a Unix time rounded down; its stock 429 ("Limit exceeded", no Retry-After).
func ululeLimiter(limit int, window time.Duration) limiter {
	rate := ulule.Rate{Period: window, Limit: int64(limit)}
	instance := ulule.New(memory.NewStore(), rate)
	middleware := stdlib.NewMiddleware(instance, stdlib.WithKeyGetter(bearer))
	return fromMiddleware(middleware.Handler)
}

func limiters(cfg config) map[string]quotas {
	build := map[string]func(int, time.Duration) limiter{
		"": httprateLimiter, "httprate": httprateLimiter, "go-limiter": goLimiter, "ulule": ululeLimiter,
	}[cfg.Library]
	if build == nil {
		fmt.Fprintln(os.Stderr, "LIMITER_CONFIG: no library", cfg.Library)
		os.Exit(2)
	}
	byKey := map[string]quotas{}
	for key, p := range cfg.Keys {
		perMinute := p.PerMinute
		if cfg.Fault == "overAdmit" {
			perMinute++
		}
		q := quotas{minute: build(perMinute, seconds(cfg.Windows.MinuteSeconds))}
		if cfg.Fault != "noDay" {
			q.day = build(p.PerDay, seconds(cfg.Windows.DaySeconds))
		}
		byKey[key] = q
	}
	return byKey
}

// limited authenticates (§5: 401 before the limiter) and runs the key's minute, then day, limiter.
func limited(cfg config, byKey map[string]quotas) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			key := bearer(r)
			p, known := cfg.Keys[key]
			if !known {
				// §8.2 wants the headers on every response: an unknown caller's untouched free minute.
				h := w.Header()
				h.Set("X-RateLimit-Limit", strconv.Itoa(cfg.Anonymous.PerMinute))
				h.Set("X-RateLimit-Remaining", strconv.Itoa(cfg.Anonymous.PerMinute))
				reset := time.Now().Add(seconds(cfg.Windows.MinuteSeconds)).Unix()
				h.Set("X-RateLimit-Reset", strconv.FormatInt(reset, 10))
				h.Set("WWW-Authenticate", "Bearer")
				message := "missing API key"
				if key != "" {
					message = "invalid API key"
				}
				writeError(w, 401, message)
				return
			}
			if cfg.Fault != "" {
				w = &faulty{ResponseWriter: w, fault: cfg.Fault, plan: p}
			}
			q := byKey[key]
			if q.minute(w, r, key) {
				return
			}
			if q.day != nil && q.day(w, r, key) {
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

type store struct {
	mu   sync.Mutex
	next int64
	pets map[int64]map[string]any
}

func (s *store) list(w http.ResponseWriter, r *http.Request) {
	raw := r.URL.Query().Get("limit")
	if raw == "" {
		raw = "20"
	}
	limit, err := strconv.Atoi(raw)
	if err != nil || limit < 1 || limit > 100 || strings.ContainsAny(raw, "+- ") {
		writeError(w, 400, "limit must be an integer from 1 to 100")
		return
	}
	status := r.URL.Query().Get("status")
	if r.URL.Query().Has("status") && !statuses[status] {
		writeError(w, 400, "status must be one of available, pending, sold")
		return
	}
	s.mu.Lock()
	pets := []map[string]any{}
	for id := int64(1); id <= s.next && len(pets) < limit; id++ {
		if pet, ok := s.pets[id]; ok && (status == "" || pet["status"] == status) {
			pets = append(pets, pet)
		}
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(pets)
}

func (s *store) create(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	decoder := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20))
	decoder.UseNumber()
	if err := decoder.Decode(&body); err != nil || decoder.More() {
		writeError(w, 400, "the body is not one JSON object")
		return
	}
	name, named := body["name"].(string)
	category, numbered := body["categoryId"].(json.Number)
	categoryID, err := category.Int64()
	if !named || !numbered || err != nil {
		writeError(w, 400, "name must be a string and categoryId an int64 integer")
		return
	}
	status, hasStatus := body["status"]
	if text, ok := status.(string); hasStatus && (!ok || !statuses[text]) {
		writeError(w, 400, "status must be one of available, pending, sold")
		return
	}
	s.mu.Lock()
	s.next++
	pet := map[string]any{"id": s.next, "name": name, "categoryId": categoryID}
	if hasStatus {
		pet["status"] = status
	}
	s.pets[s.next] = pet
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Location", fmt.Sprintf("/v1/pets/%d", pet["id"]))
	w.WriteHeader(201)
	_ = json.NewEncoder(w).Encode(pet)
}

func (s *store) get(w http.ResponseWriter, r *http.Request) {
	raw := chi.URLParam(r, "petId")
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || strings.HasPrefix(raw, "+") {
		writeError(w, 400, "petId must be an int64 integer")
		return
	}
	s.mu.Lock()
	pet, ok := s.pets[id]
	s.mu.Unlock()
	if !ok {
		writeError(w, 404, fmt.Sprintf("no pet with id %d", id))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(pet)
}

func main() {
	var cfg config
	if err := json.Unmarshal([]byte(os.Getenv("LIMITER_CONFIG")), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, "LIMITER_CONFIG:", err)
		os.Exit(2)
	}
	s := &store{pets: map[int64]map[string]any{}}
	r := chi.NewRouter()
	r.Route("/v1/pets", func(r chi.Router) {
		r.Use(limited(cfg, limiters(cfg)))
		r.Get("/", s.list)
		r.Post("/", s.create)
		r.Get("/{petId}", s.get)
	})
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// The test kit reads the port from this line.
	fmt.Printf("listening on http://%s\n", listener.Addr())
	_ = http.Serve(listener, r)
}
