package cf

import (
	"net/url"

	"github.com/emojisearch/emojisearch/hostsim/internal/assets"
	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
	"github.com/emojisearch/emojisearch/hostsim/internal/webapi"
)

// Assets returns the static assets binding: fetch(request | url) answers
// from the assets folder as Workers' asset server does.
func (r Realm) Assets(srv *assets.Server) *jsrt.Object {
	obj := r.RT.NewHostObject(nil, "Fetcher", srv)
	r.RT.Method(obj, "fetch", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		reqObj, err := r.RT.Construct(r.RT.Global.MustGet("Request"), jsrt.Arg(args, 0), jsrt.Arg(args, 1))
		if err != nil {
			return r.RT.Rejected(r.RT.ThrowValue(err)), nil
		}
		req := webapi.RequestOf(reqObj)
		u, err := url.Parse(req.URL)
		if err != nil {
			return r.RT.Rejected(r.RT.NewTypeError("Invalid URL")), nil
		}
		res := srv.Fetch(req.Method, u.RequestURI(), req.HeaderList().HTTP())
		return r.RT.Resolved(r.Web.ResponseFromGo(res.Status, res.Header, res.Body)), nil
	})
	return obj
}
