package r2_test

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"github.com/emojisearch/emojisearch/hostsim/internal/r2"
)

func ExampleBucket_Get() {
	dir, _ := os.MkdirTemp("", "r2-example")
	defer os.RemoveAll(dir)
	bucket, _ := r2.Open(dir)
	ctx := context.Background()

	obj, _ := bucket.Put(ctx, "svg/1f431.svg", []byte("<svg>cat</svg>"), r2.PutOptions{
		HTTPMetadata: r2.HTTPMetadata{ContentType: "image/svg+xml"},
	})
	fmt.Println(obj.HTTPETag)

	// A browser revalidating: If-None-Match with the ETag it holds.
	cond, _ := r2.ParseConditionalHeaders(http.Header{"If-None-Match": {obj.HTTPETag}})
	_, body, _ := bucket.Get(ctx, "svg/1f431.svg", r2.GetOptions{OnlyIf: cond})
	fmt.Println(body == nil) // no body: answer 304

	_, body, _ = bucket.Get(ctx, "svg/1f431.svg", r2.GetOptions{RangeHeader: "bytes=5-7"})
	fmt.Println(string(body))
	// Output:
	// "c0505aa4c558b2466a20c63648b83294"
	// true
	// cat
}
