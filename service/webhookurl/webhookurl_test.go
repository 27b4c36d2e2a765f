package webhookurl_test

import (
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/webhookurl"
	"github.com/emojisearch/emojisearch/service/webhookurl/webhookurltest"
)

func TestRefused(t *testing.T) {
	require.GreaterOrEqual(t, len(webhookurltest.Refused), 80)
	for _, opt := range []webhookurl.Options{{}, {Development: true}} {
		for _, tc := range webhookurltest.Refused {
			if opt.Development && webhookurltest.DevAllowed[tc.URL] {
				continue // the development allowances, tested below
			}
			t.Run(tc.URL, func(t *testing.T) {
				got, err := webhookurl.Check(tc.URL, opt)
				require.ErrorIs(t, err, tc.Want, "got %q", got)
				require.Empty(t, got)
			})
		}
	}
}

func TestAllowed(t *testing.T) {
	require.GreaterOrEqual(t, len(webhookurltest.Allowed), 20)
	for _, opt := range []webhookurl.Options{{}, {Development: true}} {
		for _, tc := range webhookurltest.Allowed {
			t.Run(tc.URL, func(t *testing.T) {
				got, err := webhookurl.Check(tc.URL, opt)
				require.NoError(t, err)
				require.Equal(t, tc.Want, got)
				again, err := webhookurl.Check(got, opt)
				require.NoError(t, err)
				require.Equal(t, got, again, "canonical form is stable")
			})
		}
	}
}

func TestDevelopment(t *testing.T) {
	dev := webhookurl.Options{Development: true}
	for _, tc := range []struct{ url, want string }{
		{"http://localhost/hook", "http://localhost/hook"},
		{"http://LOCALHOST:8080/hook", "http://localhost:8080/hook"},
		{"http://127.0.0.1:39999/in", "http://127.0.0.1:39999/in"},
		{"http://[::1]:9000/", "http://[::1]:9000/"},
		{"http://[0:0:0:0:0:0:0:1]/", "http://[::1]/"},
		{"https://localhost/", "https://localhost/"},
		{"http://127.0.0.1:80/x", "http://127.0.0.1/x"},
	} {
		t.Run(tc.url, func(t *testing.T) {
			got, err := webhookurl.Check(tc.url, dev)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			_, err = webhookurl.Check(tc.url, webhookurl.Options{})
			require.Error(t, err, "production refuses it")
		})
	}
	// Only those three hosts: other local spellings stay refused.
	for _, u := range []string{"http://127.0.0.2/", "http://127.1/", "http://2130706433/", "http://api.localhost/",
		"http://10.0.0.1/", "http://[::ffff:127.0.0.1]/", "http://user@localhost/", "http://localhost./",
		"http://example.com/", "https://127.0.0.2/"} {
		_, err := webhookurl.Check(u, dev)
		require.Error(t, err, u)
	}
}

// FuzzCheck: whatever is accepted is read the same way by Go's parser,
// has no user info, names a public host, and is a fixed point.
func FuzzCheck(f *testing.F) {
	for _, tc := range webhookurltest.Refused {
		f.Add(tc.URL, false)
	}
	for _, tc := range webhookurltest.Allowed {
		f.Add(tc.URL, true)
	}
	f.Fuzz(func(t *testing.T, raw string, dev bool) {
		opt := webhookurl.Options{Development: dev}
		got, err := webhookurl.Check(raw, opt)
		if err != nil {
			require.Empty(t, got)
			return
		}
		u, perr := url.Parse(got)
		require.NoError(t, perr, got)
		require.Nil(t, u.User, got)
		require.Empty(t, u.Fragment, got)
		host := u.Hostname()
		require.Equal(t, strings.ToLower(host), host)
		if u.Scheme == "http" || host == "localhost" || host == "127.0.0.1" || host == "::1" {
			require.True(t, dev, got)
			require.Contains(t, []string{"localhost", "127.0.0.1", "::1"}, host)
		} else {
			require.Equal(t, "https", u.Scheme)
			if a, err := netip.ParseAddr(host); err == nil {
				require.True(t, a.IsGlobalUnicast() && !a.IsPrivate() && !a.Is4In6(), got)
			} else {
				require.Contains(t, host, ".")
				require.False(t, strings.HasSuffix(host, ".local") || strings.HasSuffix(host, ".internal"), got)
			}
		}
		again, err := webhookurl.Check(got, opt)
		require.NoError(t, err)
		require.Equal(t, got, again)
	})
}

func BenchmarkCheck(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_, _ = webhookurl.Check("https://hooks.example.com:8443/in?src=emoji", webhookurl.Options{})
		_, _ = webhookurl.Check("https://[::ffff:127.0.0.1]/", webhookurl.Options{})
	}
}
