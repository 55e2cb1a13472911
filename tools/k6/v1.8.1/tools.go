//go:build tools

// The k6 petcert supports, pinned with its checksums in go.mod and go.sum beside this file.
// `npm run k6:build` builds it with `go build go.k6.io/k6` into .cache/k6/v1.8.1/k6.
// petcert only runs the resulting program; k6 (AGPL-3.0) is never linked into petcert.
package tools

import _ "go.k6.io/k6"
