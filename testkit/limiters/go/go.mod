module petcert.test/limiters/httprate

go 1.24

require (
	github.com/go-chi/chi/v5 v5.2.3
	github.com/go-chi/httprate v0.16.1
	github.com/sethvargo/go-limiter v0.7.1
	github.com/ulule/limiter/v3 v3.11.2
)

require (
	github.com/klauspost/cpuid/v2 v2.2.10 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/zeebo/xxh3 v1.0.2 // indirect
	golang.org/x/sys v0.30.0 // indirect
)
