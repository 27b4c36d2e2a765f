//go:build js && wasm && diag

package main

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/worker/internal/cf/d1"
)

// d1Routes drives the DB binding directly.
func d1Routes(r *httpx.Router) {
	r.HandleFunc(http.MethodPost, "/__diag/d1/:op", diagD1)
}

// diagD1 runs {sql, params} (or a list of them for batch, or {sql} for
// exec) through the DB binding with the operation named in the path.
func diagD1(w http.ResponseWriter, r *http.Request) {
	db, err := d1.Open("DB")
	if err != nil {
		fail(w, err)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var res any
	op := httpx.Param(r, "op")
	if op == "batch" {
		var stmts []d1.Statement
		if err := json.Unmarshal(body, &stmts); err != nil {
			httpx.Error(w, http.StatusBadRequest, err.Error())
			return
		}
		res, err = db.Batch(r.Context(), stmts)
	} else {
		var s d1.Statement
		if err := json.Unmarshal(body, &s); err != nil {
			httpx.Error(w, http.StatusBadRequest, err.Error())
			return
		}
		switch op {
		case "all":
			res, err = db.All(r.Context(), s)
		case "run":
			res, err = db.Run(r.Context(), s)
		case "first":
			res, err = db.First(r.Context(), s)
		case "raw":
			res, err = db.Raw(r.Context(), s)
		case "exec":
			res, err = db.Exec(r.Context(), s.SQL)
		default:
			httpx.Error(w, http.StatusNotFound, "unknown D1 operation "+op)
			return
		}
	}
	if err != nil {
		httpx.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"result": res})
}
