package webhookurl_test

import (
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/webhookurl"
)

// refused lists URLs no environment may save or call, with the reason.
var refused = []struct {
	url  string
	want error
}{
	// Schemes and shapes.
	{"http://example.com/hook", webhookurl.ErrScheme},
	{"ftp://example.com/hook", webhookurl.ErrScheme},
	{"file:///etc/passwd", webhookurl.ErrScheme},
	{"ws://example.com/", webhookurl.ErrScheme},
	{"javascript:alert(1)", webhookurl.ErrScheme},
	{"gopher://example.com/", webhookurl.ErrScheme},
	{"data:text/plain,hi", webhookurl.ErrScheme},
	{"https:example.com/hook", webhookurl.ErrSyntax},
	{"https:/example.com/hook", webhookurl.ErrSyntax},
	{"//example.com/hook", webhookurl.ErrSyntax},
	{"example.com/hook", webhookurl.ErrSyntax},
	{"", webhookurl.ErrSyntax},
	{"https://exa mple.com/", webhookurl.ErrSyntax},
	{" https://example.com/", webhookurl.ErrSyntax},
	{"https://example.com/\n", webhookurl.ErrSyntax},
	{"https://exam\tple.com/", webhookurl.ErrSyntax},
	{"https://example.com\\@127.0.0.1/", webhookurl.ErrSyntax},
	{"https:\\\\127.0.0.1/", webhookurl.ErrSyntax},
	{"https://example.com:0/", webhookurl.ErrSyntax},
	{"https://example.com:65536/", webhookurl.ErrSyntax},
	{"https://example.com:0443/", webhookurl.ErrSyntax},
	{"https://example.com:44a/", webhookurl.ErrSyntax},
	{"https://example.com/%", webhookurl.ErrSyntax},
	{"https://example.com/a%2", webhookurl.ErrSyntax},
	{"https://example.com/?q=%zz", webhookurl.ErrSyntax},
	{"https://" + strings.Repeat("a", 2050) + ".com/", webhookurl.ErrSyntax},
	// User info.
	{"https://user@example.com/", webhookurl.ErrUserInfo},
	{"https://user:pass@example.com/", webhookurl.ErrUserInfo},
	{"https://:pass@example.com/", webhookurl.ErrUserInfo},
	{"https://example.com@127.0.0.1/", webhookurl.ErrUserInfo},
	{"https://127.0.0.1@example.com/", webhookurl.ErrUserInfo},
	{"https://@example.com/", webhookurl.ErrUserInfo},
	// Numeric spellings WHATWG turns into an address.
	{"https://2130706433/", webhookurl.ErrNumeric},
	{"https://0177.0.0.1/", webhookurl.ErrNumeric},
	{"https://0x7f.1/", webhookurl.ErrNumeric},
	{"https://0x7f000001/", webhookurl.ErrNumeric},
	{"https://127.1/", webhookurl.ErrNumeric},
	{"https://127.0.1/", webhookurl.ErrNumeric},
	{"https://127.0.0.1./", webhookurl.ErrNumeric},
	{"https://8.8.8.8./", webhookurl.ErrNumeric},
	{"https://010.0.0.1/", webhookurl.ErrNumeric},
	{"https://0x0A.0.0.1/", webhookurl.ErrNumeric},
	{"https://1.2.3.4.5/", webhookurl.ErrNumeric},
	{"https://256.1.1.1/", webhookurl.ErrNumeric},
	{"https://3232235521/", webhookurl.ErrNumeric},
	{"https://0/", webhookurl.ErrNumeric},
	{"https://example.123/", webhookurl.ErrNumeric},
	{"https://foo.0x10/", webhookurl.ErrNumeric},
	{"https://08.8.8.8/", webhookurl.ErrNumeric},
	// Encoded, non-ASCII and odd host spellings.
	{"https://%31%32%37.0.0.1/", webhookurl.ErrHostSyntax},
	{"https://exa%6dple.com/", webhookurl.ErrHostSyntax},
	{"https://１２７.0.0.1/", webhookurl.ErrSyntax},
	{"https://ｌｏｃａｌｈｏｓｔ/", webhookurl.ErrSyntax},
	{"https://bücher.de/", webhookurl.ErrSyntax},
	{"https://例え.jp/", webhookurl.ErrSyntax},
	{"https://example.com./", webhookurl.ErrHostSyntax},
	{"https://example..com/", webhookurl.ErrHostSyntax},
	{"https://.example.com/", webhookurl.ErrHostSyntax},
	{"https://exa_mple.com/", webhookurl.ErrHostSyntax},
	{"https://-example.com/", webhookurl.ErrHostSyntax},
	{"https://example-.com/", webhookurl.ErrHostSyntax},
	{"https://example.com:443:443/", webhookurl.ErrHostSyntax},
	{"https:///hook", webhookurl.ErrHostSyntax},
	{"https://:443/", webhookurl.ErrHostSyntax},
	{"https://" + strings.Repeat("a", 64) + ".com/", webhookurl.ErrHostSyntax},
	{"https://[fe80::1%25eth0]/", webhookurl.ErrHostSyntax},
	{"https://[::1/", webhookurl.ErrHostSyntax},
	{"https://[127.0.0.1]/", webhookurl.ErrHostSyntax},
	{"https://[2606:4700::1]x/", webhookurl.ErrHostSyntax},
	// Internal names (any case).
	{"https://localhost/", webhookurl.ErrInternal},
	{"https://LOCALHOST/", webhookurl.ErrInternal},
	{"https://LocalHost:8443/", webhookurl.ErrInternal},
	{"https://api.localhost/", webhookurl.ErrInternal},
	{"https://printer.local/", webhookurl.ErrInternal},
	{"https://db.internal/", webhookurl.ErrInternal},
	{"https://metadata.google.internal/computeMetadata/v1/", webhookurl.ErrInternal},
	{"https://intranet/", webhookurl.ErrInternal},
	{"https://router.home.arpa/", webhookurl.ErrInternal},
	{"https://nas.lan/", webhookurl.ErrInternal},
	{"https://1.0.0.127.in-addr.arpa/", webhookurl.ErrInternal},
	{"https://service.test/", webhookurl.ErrInternal},
	{"https://nothing.invalid/", webhookurl.ErrInternal},
	{"https://hidden.onion/", webhookurl.ErrInternal},
	{"https://box.localdomain/", webhookurl.ErrInternal},
	{"https://Printer.LOCAL/", webhookurl.ErrInternal},
	// IPv4 special-purpose ranges.
	{"https://127.0.0.1/", webhookurl.ErrPrivate},
	{"https://127.255.255.254/", webhookurl.ErrPrivate},
	{"https://0.0.0.0/", webhookurl.ErrPrivate},
	{"https://10.0.0.1/", webhookurl.ErrPrivate},
	{"https://10.255.255.255/", webhookurl.ErrPrivate},
	{"https://172.16.0.1/", webhookurl.ErrPrivate},
	{"https://172.31.255.255/", webhookurl.ErrPrivate},
	{"https://192.168.1.1/", webhookurl.ErrPrivate},
	{"https://169.254.169.254/latest/meta-data/", webhookurl.ErrPrivate},
	{"https://100.64.0.1/", webhookurl.ErrPrivate},
	{"https://100.127.255.255/", webhookurl.ErrPrivate},
	{"https://224.0.0.1/", webhookurl.ErrPrivate},
	{"https://239.255.255.250/", webhookurl.ErrPrivate},
	{"https://255.255.255.255/", webhookurl.ErrPrivate},
	{"https://240.0.0.1/", webhookurl.ErrPrivate},
	{"https://192.0.2.10/", webhookurl.ErrPrivate},
	{"https://198.51.100.7/", webhookurl.ErrPrivate},
	{"https://203.0.113.9/", webhookurl.ErrPrivate},
	{"https://198.18.0.1/", webhookurl.ErrPrivate},
	{"https://192.0.0.8/", webhookurl.ErrPrivate},
	{"https://192.88.99.1/", webhookurl.ErrPrivate},
	// IPv6 special-purpose ranges and forms embedding IPv4.
	{"https://[::1]/", webhookurl.ErrPrivate},
	{"https://[0:0:0:0:0:0:0:1]/", webhookurl.ErrPrivate},
	{"https://[::]/", webhookurl.ErrPrivate},
	{"https://[::ffff:127.0.0.1]/", webhookurl.ErrPrivate},
	{"https://[::ffff:7f00:1]/", webhookurl.ErrPrivate},
	{"https://[::ffff:8.8.8.8]/", webhookurl.ErrPrivate},
	{"https://[::127.0.0.1]/", webhookurl.ErrPrivate},
	{"https://[::ffff:0:10.0.0.1]/", webhookurl.ErrPrivate},
	{"https://[64:ff9b::127.0.0.1]/", webhookurl.ErrPrivate},
	{"https://[64:ff9b::a00:1]/", webhookurl.ErrPrivate},
	{"https://[64:ff9b:1::a00:1]/", webhookurl.ErrPrivate},
	{"https://[2002:7f00:1::]/", webhookurl.ErrPrivate},
	{"https://[2002:c0a8:101::1]/", webhookurl.ErrPrivate},
	{"https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", webhookurl.ErrPrivate},
	{"https://[2001:0::5efe:7f00:1]/", webhookurl.ErrPrivate},
	{"https://[fe80::1]/", webhookurl.ErrPrivate},
	{"https://[fc00::1]/", webhookurl.ErrPrivate},
	{"https://[fd12:3456:789a::1]/", webhookurl.ErrPrivate},
	{"https://[ff02::1]/", webhookurl.ErrPrivate},
	{"https://[2001:db8::1]/", webhookurl.ErrPrivate},
	{"https://[3fff::1]/", webhookurl.ErrPrivate},
	{"https://[100::1]/", webhookurl.ErrPrivate},
	{"https://[fec0::1]/", webhookurl.ErrPrivate},
	{"https://[2001:10::1]/", webhookurl.ErrPrivate},
	// The development allowances do not apply in production.
	{"http://localhost/", webhookurl.ErrScheme},
	{"http://127.0.0.1:8080/hook", webhookurl.ErrScheme},
	{"http://[::1]/", webhookurl.ErrScheme},
}

// allowed lists URLs production accepts, with their canonical form.
var allowed = []struct{ url, want string }{
	{"https://example.com/hook", "https://example.com/hook"},
	{"https://example.com", "https://example.com/"},
	{"https://example.com?x=1", "https://example.com/?x=1"},
	{"https://example.com/hook#frag", "https://example.com/hook"},
	{"HTTPS://Example.COM/Hook", "https://example.com/Hook"},
	{"https://hooks.example.com:8443/in?src=emoji", "https://hooks.example.com:8443/in?src=emoji"},
	{"https://example.com:443/x", "https://example.com/x"},
	{"https://example.com:/x", "https://example.com/x"},
	{"https://api.github.com/repos/x/hooks", "https://api.github.com/repos/x/hooks"},
	{"https://my-service.eu-west-1.amazonaws.com/prod/hook", "https://my-service.eu-west-1.amazonaws.com/prod/hook"},
	{"https://xn--bcher-kva.de/hook", "https://xn--bcher-kva.de/hook"},
	{"https://a.b.c.d.example.org/", "https://a.b.c.d.example.org/"},
	{"https://123.example.com/", "https://123.example.com/"},
	{"https://example.com/%7Euser/hook", "https://example.com/%7Euser/hook"},

	{"https://8.8.8.8/hook", "https://8.8.8.8/hook"},
	{"https://1.1.1.1:8443/", "https://1.1.1.1:8443/"},
	{"https://93.184.216.34/", "https://93.184.216.34/"},
	{"https://172.32.0.1/", "https://172.32.0.1/"},
	{"https://100.128.0.1/", "https://100.128.0.1/"},
	{"https://[2606:4700:4700::1111]/", "https://[2606:4700:4700::1111]/"},
	{"https://[2606:4700:4700:0:0:0:0:1111]:8443/h", "https://[2606:4700:4700::1111]:8443/h"},
	{"https://[2a00:1450:4001:82b::200e]/", "https://[2a00:1450:4001:82b::200e]/"},
	{"https://hooks.slack.com/services/T0/B0/XXXX", "https://hooks.slack.com/services/T0/B0/XXXX"},
	{"https://example.co.uk/a/b/c?d=e&f=g", "https://example.co.uk/a/b/c?d=e&f=g"},
	{"https://localhost.example.com/", "https://localhost.example.com/"},
}

// devAllowed are the refused URLs the development environment accepts.
var devAllowed = map[string]bool{
	"https://localhost/": true, "https://LOCALHOST/": true, "https://LocalHost:8443/": true,
	"https://127.0.0.1/": true, "https://[::1]/": true, "https://[0:0:0:0:0:0:0:1]/": true,
	"http://localhost/": true, "http://127.0.0.1:8080/hook": true, "http://[::1]/": true,
}

func TestRefused(t *testing.T) {
	require.GreaterOrEqual(t, len(refused), 80)
	for _, opt := range []webhookurl.Options{{}, {Development: true}} {
		for _, tc := range refused {
			if opt.Development && devAllowed[tc.url] {
				continue // the development allowances, tested below
			}
			t.Run(tc.url, func(t *testing.T) {
				got, err := webhookurl.Check(tc.url, opt)
				require.ErrorIs(t, err, tc.want, "got %q", got)
				require.Empty(t, got)
			})
		}
	}
}

func TestAllowed(t *testing.T) {
	require.GreaterOrEqual(t, len(allowed), 20)
	for _, opt := range []webhookurl.Options{{}, {Development: true}} {
		for _, tc := range allowed {
			t.Run(tc.url, func(t *testing.T) {
				got, err := webhookurl.Check(tc.url, opt)
				require.NoError(t, err)
				require.Equal(t, tc.want, got)
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
	for _, tc := range refused {
		f.Add(tc.url, false)
	}
	for _, tc := range allowed {
		f.Add(tc.url, true)
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
