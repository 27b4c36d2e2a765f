package assets

// Limits and fixed values of Workers Static Assets (developers.cloudflare.com
// /workers/static-assets/ and workers-sdk packages/workers-shared).
const (
	// MaxAssetSize is the largest file Workers accepts as an asset.
	MaxAssetSize = 25 << 20

	// CacheControl is what the asset server sends unless the request carries
	// Authorization or Range (workers-shared CACHE_CONTROL_BROWSER).
	CacheControl = "public, max-age=0, must-revalidate"

	// CacheStatus is the CF-Cache-Status local dev sends with every asset.
	CacheStatus = "HIT"

	// Files in the assets folder that configure it and are never served.
	ignoreFile    = ".assetsignore"
	headersFile   = "_headers"
	redirectsFile = "_redirects"
)

// contentTypes maps an extension to the type the npm "mime" package used by
// wrangler gives it (checked against wrangler 4.164 for .js, .json, .bin,
// .ico, .html, .txt); text types get "; charset=utf-8" appended as wrangler
// does. An extension not listed gets no Content-Type header, as in Workers.
var contentTypes = map[string]string{
	".html": "text/html", ".htm": "text/html", ".shtml": "text/html",
	".css":         "text/css",
	".js":          "text/javascript",
	".mjs":         "text/javascript",
	".json":        "application/json",
	".map":         "application/json",
	".jsonld":      "application/ld+json",
	".webmanifest": "application/manifest+json",
	".xml":         "application/xml",
	".rss":         "application/rss+xml",
	".atom":        "application/atom+xml",
	".txt":         "text/plain", ".text": "text/plain", ".log": "text/plain", ".ini": "text/plain", ".conf": "text/plain",
	".csv": "text/csv",
	".md":  "text/markdown", ".markdown": "text/markdown",
	".yaml": "text/yaml", ".yml": "text/yaml",
	".svg": "image/svg+xml", ".svgz": "image/svg+xml",
	".png": "image/png", ".apng": "image/apng",
	".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".jpe": "image/jpeg",
	".gif":  "image/gif",
	".webp": "image/webp",
	".avif": "image/avif",
	".ico":  "image/vnd.microsoft.icon",
	".bmp":  "image/bmp",
	".tif":  "image/tiff", ".tiff": "image/tiff",
	".woff":  "font/woff",
	".woff2": "font/woff2",
	".ttf":   "font/ttf",
	".otf":   "font/otf",
	".eot":   "application/vnd.ms-fontobject",
	".wasm":  "application/wasm",
	".pdf":   "application/pdf",
	".zip":   "application/zip",
	".gz":    "application/gzip",
	".bin":   "application/octet-stream", ".exe": "application/octet-stream", ".dll": "application/octet-stream",
	".so": "application/octet-stream", ".iso": "application/octet-stream", ".img": "application/octet-stream",
	".dmg": "application/octet-stream", ".buffer": "application/octet-stream",
	".mp3": "audio/mpeg",
	".wav": "audio/wav",
	".ogg": "audio/ogg", ".oga": "audio/ogg",
	".m4a":  "audio/mp4",
	".mp4":  "video/mp4",
	".webm": "video/webm",
	".ogv":  "video/ogg",
}
