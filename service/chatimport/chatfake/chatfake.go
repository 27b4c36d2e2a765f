// Package chatfake is a fake of both chat providers for tests, over real
// HTTP and in their real wire formats (FACTS.md, External APIs): the
// team-chat provider's emoji.list (Slack: errors as HTTP 200 with
// ok:false, 429 with Retry-After) and its emoji CDN, and the
// community-chat provider's guild emoji listing (Discord API v10: 401,
// 403 Missing Access 50001, 404 Unknown Guild 10004, 429 with retry_after)
// and its CDN at /emojis/<id>.<png|gif>?size=128. Images are real PNG and
// GIF files made here; entries can be made to serve HTML or fail.
package chatfake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Emoji is one emoji a fake workspace or guild holds.
type Emoji struct {
	Name     string
	AliasOf  string // team chat: listed as "alias:<AliasOf>"
	Animated bool   // served as GIF
	HTML     bool   // the CDN answers an HTML page as image/png
	Missing  bool   // the CDN answers 404
	ID       string // community chat: the emoji id (default: generated)
	URL      string // team chat: list this image address instead of the fake CDN's
}

// Server is both fakes on one listener. Paths: /slack/api/emoji.list,
// /slack-cdn/..., /discord/api/v10/guilds/<id>/emojis, /discord-cdn/emojis/....
type Server struct {
	srv *httptest.Server

	mu sync.Mutex
	// Team chat: token → emoji; RevokedTokens answer token_revoked.
	slack   map[string][]Emoji
	revoked map[string]bool
	// Community chat: bot token → guild id → emoji; a bot with no entry
	// for a guild that exists elsewhere gets 403 Missing Access.
	discord map[string]map[string][]Emoji
	// RateLimited makes every listing answer 429.
	rateLimited bool
	// Requests records every request's method, path and Authorization.
	requests []Request
	images   map[string]Emoji // CDN path → emoji
}

// Request is one request the fake received.
type Request struct {
	Path          string
	Authorization string
}

// New starts the fake; Close stops it.
func New() *Server {
	s := &Server{slack: map[string][]Emoji{}, revoked: map[string]bool{}, discord: map[string]map[string][]Emoji{},
		images: map[string]Emoji{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// URL is the fake's base URL.
func (s *Server) URL() string { return s.srv.URL }

// SlackAPI, DiscordAPI and DiscordCDN are the bases to configure.
func (s *Server) SlackAPI() string   { return s.srv.URL + "/slack/api" }
func (s *Server) DiscordAPI() string { return s.srv.URL + "/discord/api/v10" }
func (s *Server) DiscordCDN() string { return s.srv.URL + "/discord-cdn" }

// Close stops the fake.
func (s *Server) Close() { s.srv.Close() }

// SetSlack sets the emoji a user token sees.
func (s *Server) SetSlack(token string, emoji []Emoji) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.slack[token] = emoji
}

// Revoke makes a user token answer token_revoked.
func (s *Server) Revoke(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.revoked[token] = true
}

// SetDiscord sets the emoji a bot sees in a guild.
func (s *Server) SetDiscord(botToken, guildID string, emoji []Emoji) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.discord[botToken] == nil {
		s.discord[botToken] = map[string][]Emoji{}
	}
	for i := range emoji {
		if emoji[i].ID == "" {
			emoji[i].ID = fmt.Sprintf("%d%04d", 1100000000000000+len(s.images), i)
		}
	}
	s.discord[botToken][guildID] = emoji
}

// SetRateLimited turns the listings' 429 answers on or off.
func (s *Server) SetRateLimited(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rateLimited = on
}

// Requests returns the requests so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Request{Path: r.URL.Path, Authorization: r.Header.Get("Authorization")})
	p := r.URL.Path
	switch {
	case p == "/slack/api/emoji.list":
		s.slackList(w, r)
	case strings.HasPrefix(p, "/discord/api/v10/guilds/") && strings.HasSuffix(p, "/emojis"):
		s.discordList(w, r, strings.TrimSuffix(strings.TrimPrefix(p, "/discord/api/v10/guilds/"), "/emojis"))
	case strings.HasPrefix(p, "/slack-cdn/") || strings.HasPrefix(p, "/discord-cdn/emojis/"):
		s.image(w, p)
	default:
		http.NotFound(w, r)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) slackList(w http.ResponseWriter, r *http.Request) {
	if s.rateLimited {
		w.Header().Set("Retry-After", "30")
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"ok": false, "error": "ratelimited"})
		return
	}
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || token == "" {
		writeJSON(w, http.StatusOK, map[string]any{"ok": false, "error": "not_authed"})
		return
	}
	if s.revoked[token] {
		writeJSON(w, http.StatusOK, map[string]any{"ok": false, "error": "token_revoked"})
		return
	}
	list, ok := s.slack[token]
	if !ok {
		writeJSON(w, http.StatusOK, map[string]any{"ok": false, "error": "invalid_auth"})
		return
	}
	out := map[string]string{}
	for i, e := range list {
		if e.AliasOf != "" {
			out[e.Name] = "alias:" + e.AliasOf
			continue
		}
		ext := "png"
		if e.Animated {
			ext = "gif"
		}
		if e.URL != "" {
			out[e.Name] = e.URL
			continue
		}
		path := fmt.Sprintf("/slack-cdn/T0FAKE/%s/%08x.%s", e.Name, i, ext)
		s.images[path] = e
		out[e.Name] = s.srv.URL + path
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "emoji": out, "cache_ts": "1700000000.000000"})
}

func (s *Server) discordList(w http.ResponseWriter, r *http.Request, guild string) {
	if s.rateLimited {
		w.Header().Set("Retry-After", "2")
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.",
			"retry_after": 1.5, "global": false})
		return
	}
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bot ")
	guilds, ok := s.discord[token]
	if !ok {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"message": "401: Unauthorized", "code": 0})
		return
	}
	list, ok := guilds[guild]
	if !ok {
		for _, other := range s.discord {
			if _, exists := other[guild]; exists {
				writeJSON(w, http.StatusForbidden, map[string]any{"message": "Missing Access", "code": 50001})
				return
			}
		}
		writeJSON(w, http.StatusNotFound, map[string]any{"message": "Unknown Guild", "code": 10004})
		return
	}
	out := make([]map[string]any, 0, len(list))
	for _, e := range list {
		ext := "png"
		if e.Animated {
			ext = "gif"
		}
		s.images["/discord-cdn/emojis/"+e.ID+"."+ext] = e
		out = append(out, map[string]any{"id": e.ID, "name": e.Name, "roles": []string{}, "require_colons": true,
			"managed": false, "animated": e.Animated, "available": true})
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) image(w http.ResponseWriter, path string) {
	e, ok := s.images[path]
	if !ok || e.Missing {
		http.NotFound(w, nil)
		return
	}
	if e.HTML {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write([]byte("<!doctype html><html><body>Sign in to continue</body></html>"))
		return
	}
	if e.Animated {
		w.Header().Set("Content-Type", "image/gif")
		_, _ = w.Write(GIF(e.Name))
		return
	}
	w.Header().Set("Content-Type", "image/png")
	_, _ = w.Write(PNG(e.Name))
}

// PNG is a small real PNG whose colour depends on seed.
func PNG(seed string) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	c := color.RGBA{R: byte(len(seed) * 40), G: byte(seed[0]), B: 200, A: 255}
	for y := 0; y < 16; y++ {
		for x := 0; x < 16; x++ {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// GIF is a small real two-frame animated GIF.
func GIF(seed string) []byte {
	pal := color.Palette{color.Black, color.RGBA{R: byte(seed[0]), G: 100, B: 50, A: 255}}
	a := &gif.GIF{}
	for f := 0; f < 2; f++ {
		fr := image.NewPaletted(image.Rect(0, 0, 8, 8), pal)
		fr.SetColorIndex(f, f, 1)
		a.Image = append(a.Image, fr)
		a.Delay = append(a.Delay, 10)
	}
	var b bytes.Buffer
	_ = gif.EncodeAll(&b, a)
	return b.Bytes()
}
