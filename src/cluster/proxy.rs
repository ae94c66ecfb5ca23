//! Which proxy the requests to the API server go through, decided the way kubectl decides it.
//!
//! kubectl (client-go 1.36) uses, in this order:
//! 1. the kubeconfig cluster's `proxy-url`, for every request, NO_PROXY not consulted
//!    (`tools/clientcmd/client_config.go` sets `Proxy = http.ProxyURL(u)`; the URL must be
//!    `http`, `https` or `socks5`: `tools/clientcmd/helpers.go` `parseProxyURL`);
//! 2. else the environment through Go's `http.ProxyFromEnvironment`
//!    (`transport/cache.go`), i.e. `golang.org/x/net/http/httpproxy` `FromEnvironment`:
//!    `https_proxy`/`HTTPS_PROXY` for an `https` server, `http_proxy`/`HTTP_PROXY` for an
//!    `http` one (the lowercase name wins when both are set and non-empty), skipped when the
//!    server is `localhost` or a loopback IP, or when `no_proxy`/`NO_PROXY` matches it.
//!
//! kube-rs's own choice differs (it reads only `HTTPS_PROXY` first, and checks NO_PROXY
//! against the proxy's address instead of the server's), so [`choose`] replaces it.
//!
//! Everything here is pure: the environment comes in as a [`ProxyEnv`].

use std::net::IpAddr;

/// The proxy settings of the environment, as Go's `httpproxy.FromEnvironment` reads them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProxyEnv {
    /// `http_proxy`, else `HTTP_PROXY` (empty counts as unset).
    pub http_proxy: Option<String>,
    /// `https_proxy`, else `HTTPS_PROXY`.
    pub https_proxy: Option<String>,
    /// `no_proxy`, else `NO_PROXY`.
    pub no_proxy: Option<String>,
    /// `REQUEST_METHOD` is set: Go then refuses `HTTP_PROXY` for `http` URLs
    /// (<https://go.dev/s/cgihttpproxy>).
    pub cgi: bool,
}

impl ProxyEnv {
    /// Reads the settings through `get` (a variable's value, `None` when unset). The lowercase
    /// name is looked at first and an empty value counts as unset, as in Go's `getEnvAny`.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> ProxyEnv {
        let any = |names: [&str; 2]| names.iter().find_map(|n| get(n).filter(|v| !v.is_empty()));
        ProxyEnv {
            http_proxy: any(["http_proxy", "HTTP_PROXY"]),
            https_proxy: any(["https_proxy", "HTTPS_PROXY"]),
            no_proxy: any(["no_proxy", "NO_PROXY"]),
            cgi: get("REQUEST_METHOD").is_some_and(|v| !v.is_empty()),
        }
    }

    /// Reads the settings of this process's environment.
    pub fn from_process() -> ProxyEnv {
        ProxyEnv::from_lookup(|n| std::env::var(n).ok())
    }
}

/// Why no proxy could be chosen. Every message names the proxy without its userinfo.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ProxyError {
    /// The kubeconfig cluster's `proxy-url` is not a URL with a host.
    #[error(
        "the kubeconfig cluster's proxy-url {0} is not a valid URL; write it as http://HOST:PORT, https://HOST:PORT or socks5://HOST:PORT"
    )]
    InvalidUrl(String),
    /// The proxy's scheme is not one kubectl supports (client-go `parseProxyURL`).
    #[error(
        "the proxy {url} (from {origin}) uses the scheme {scheme:?}, which is not supported; use http, https or socks5"
    )]
    Scheme {
        /// The proxy URL, without userinfo.
        url: String,
        /// Where it came from: `the kubeconfig's proxy-url`, `HTTPS_PROXY` or `HTTP_PROXY`.
        origin: &'static str,
        /// The scheme found.
        scheme: String,
    },
    /// `HTTP_PROXY` set in a CGI environment, which Go refuses (<https://go.dev/s/cgihttpproxy>).
    #[error(
        "refusing to use HTTP_PROXY because REQUEST_METHOD is set (a CGI environment, see https://go.dev/s/cgihttpproxy); unset HTTP_PROXY or REQUEST_METHOD"
    )]
    Cgi,
}

/// One `NO_PROXY` entry, parsed as Go's `httpproxy` `config.init` parses it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Rule {
    /// `*`: never use a proxy.
    All,
    /// `10.0.0.0/8`, `fd00::/8` (port ignored, as Go's `cidrMatch`).
    Cidr(IpAddr, u8),
    /// `10.1.2.3`, `10.1.2.3:6443`, `[::1]:6443` (`ipMatch`; empty port = any).
    Ip(IpAddr, String),
    /// `.example.com` (subdomains only) or `example.com` (the host and its subdomains);
    /// stored with the leading dot (`domainMatch`).
    Domain {
        /// `.example.com`.
        suffix: String,
        /// The port, empty for any.
        port: String,
        /// The entry had no leading dot: the bare host matches too.
        match_host: bool,
    },
}

/// A parsed `NO_PROXY` list. Parsing never fails: Go makes "a best effort … and errors are
/// ignored" (`httpproxy.Config.NoProxy`), so an entry it cannot use is skipped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NoProxy {
    rules: Vec<Rule>,
}

/// Go's `net.SplitHostPort` for a NO_PROXY entry: `host:port` or `[v6]:port`, else `None`.
fn split_host_port(p: &str) -> Option<(&str, &str)> {
    if let Some(rest) = p.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        return Some((host, after.strip_prefix(':')?));
    }
    let (host, port) = p.split_once(':')?;
    (!port.contains(':')).then_some((host, port))
}

/// Go's `net.ParseCIDR` (address and prefix length), the prefix bounded by the family.
fn parse_cidr(p: &str) -> Option<(IpAddr, u8)> {
    let (ip, bits) = p.split_once('/')?;
    let ip: IpAddr = ip.parse().ok()?;
    let bits: u8 = bits.parse().ok()?;
    let max = if ip.is_ipv4() { 32 } else { 128 };
    (bits <= max).then_some((ip, bits))
}

/// Whether `ip` is inside `net/bits` (IPv4-mapped IPv6 addresses compare as IPv4, as Go's).
fn cidr_contains(net: IpAddr, bits: u8, ip: IpAddr) -> bool {
    match (net.to_canonical(), ip.to_canonical()) {
        (IpAddr::V4(n), IpAddr::V4(i)) => {
            let mask = u32::MAX.checked_shl(32 - u32::from(bits)).unwrap_or(0);
            u32::from(n) & mask == u32::from(i) & mask
        }
        (IpAddr::V6(n), IpAddr::V6(i)) => {
            let mask = u128::MAX.checked_shl(128 - u32::from(bits)).unwrap_or(0);
            u128::from(n) & mask == u128::from(i) & mask
        }
        _ => false,
    }
}

impl NoProxy {
    /// Parses a comma-separated `NO_PROXY` value with the rules of Go's `httpproxy`
    /// (`golang.org/x/net/http/httpproxy/proxy.go`, `config.init`): entries are trimmed and
    /// lowercased, empty ones skipped; `*` matches everything; a CIDR matches its addresses;
    /// an IP (optionally `:port`, IPv6 in brackets with a port) matches that address;
    /// anything else is a domain: `example.com` matches it and its subdomains,
    /// `.example.com` and `*.example.com` subdomains only, optionally with `:port`.
    pub fn parse(value: &str) -> NoProxy {
        let mut rules = Vec::new();
        for p in value.split(',') {
            let p = p.trim().to_ascii_lowercase();
            if p.is_empty() {
                continue;
            }
            if p == "*" {
                return NoProxy {
                    rules: vec![Rule::All],
                };
            }
            if let Some((ip, bits)) = parse_cidr(&p) {
                rules.push(Rule::Cidr(ip, bits));
                continue;
            }
            let (host, port) = match split_host_port(&p) {
                Some(("", _)) => continue,
                Some((h, port)) => (h.to_string(), port.to_string()),
                None => (p.clone(), String::new()),
            };
            if let Ok(ip) = host.parse::<IpAddr>() {
                rules.push(Rule::Ip(ip, port));
                continue;
            }
            let host = host
                .strip_prefix('*')
                .filter(|h| h.starts_with('.'))
                .unwrap_or(&host);
            let match_host = !host.starts_with('.');
            rules.push(Rule::Domain {
                suffix: if match_host {
                    format!(".{host}")
                } else {
                    host.to_string()
                },
                port,
                match_host,
            });
        }
        NoProxy { rules }
    }

    /// Whether a request to `host:port` goes around the proxy: Go's `useProxy` negated,
    /// including its special case that `localhost` and loopback addresses never use a proxy
    /// from the environment. `host` is the URL's host without IPv6 brackets.
    pub fn bypasses(&self, host: &str, port: u16) -> bool {
        let host = host.trim().to_ascii_lowercase();
        if host == "localhost" {
            return true;
        }
        let ip = host.parse::<IpAddr>().ok().map(|i| i.to_canonical());
        if ip.is_some_and(|i| i.is_loopback()) {
            return true;
        }
        let port = port.to_string();
        self.rules.iter().any(|rule| match (rule, ip) {
            (Rule::All, _) => true,
            (Rule::Cidr(net, bits), Some(ip)) => cidr_contains(*net, *bits, ip),
            (Rule::Ip(want, p), Some(ip)) => {
                want.to_canonical() == ip && (p.is_empty() || *p == port)
            }
            (
                Rule::Domain {
                    suffix,
                    port: p,
                    match_host,
                },
                None,
            ) => {
                (host.ends_with(suffix.as_str()) || (*match_host && host == suffix[1..]))
                    && (p.is_empty() || *p == port)
            }
            _ => false,
        })
    }
}

/// Go's `httpproxy.parseProxy` for an environment value: a URL, or `host[:port]` taken as
/// `http://host[:port]`. `None` when it is not usable (Go then ignores the variable).
fn parse_env_proxy(value: &str) -> Option<http::Uri> {
    let parsed = value
        .parse::<http::Uri>()
        .ok()
        .filter(|u| u.scheme().is_some() && u.host().is_some_and(|h| !h.is_empty()));
    parsed.or_else(|| {
        format!("http://{value}")
            .parse::<http::Uri>()
            .ok()
            .filter(|u| u.host().is_some_and(|h| !h.is_empty()))
    })
}

/// The proxy URL with its scheme checked and the scheme's default port filled in (Go's
/// `portMap`: http 80, https 443, socks5 1080), so the connector dials what Go would.
fn checked(uri: http::Uri, origin: &'static str) -> Result<http::Uri, ProxyError> {
    let scheme = uri.scheme_str().unwrap_or("").to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => 80,
        "https" => 443,
        "socks5" => 1080,
        _ => {
            return Err(ProxyError::Scheme {
                url: crate::base::redact::url_without_userinfo(&uri.to_string()),
                origin,
                scheme,
            });
        }
    };
    if uri.port_u16().is_some() {
        return Ok(uri);
    }
    let authority = uri.authority().map(|a| a.as_str()).unwrap_or("");
    http::Uri::builder()
        .scheme(scheme.as_str())
        .authority(format!("{authority}:{default_port}"))
        .path_and_query("/")
        .build()
        .map_err(|_| {
            ProxyError::InvalidUrl(crate::base::redact::url_without_userinfo(&uri.to_string()))
        })
}

/// The proxy for requests to `server`, as kubectl chooses it (see the module docs):
/// the kubeconfig cluster's `proxy-url` when non-empty, else the environment's proxy for the
/// server's scheme unless NO_PROXY (or localhost/loopback) excludes the server.
/// `Ok(None)`: connect directly.
///
/// # Errors
/// [`ProxyError::InvalidUrl`] for a `proxy-url` that is not a URL (kubectl refuses it too),
/// [`ProxyError::Scheme`] for a scheme other than http, https, socks5, [`ProxyError::Cgi`]
/// for `HTTP_PROXY` under CGI. An environment value that is not a URL is ignored, as Go does.
pub fn choose(
    server: &http::Uri,
    kubeconfig_proxy_url: Option<&str>,
    env: &ProxyEnv,
) -> Result<Option<http::Uri>, ProxyError> {
    if let Some(url) = kubeconfig_proxy_url.filter(|u| !u.is_empty()) {
        let uri = url
            .parse::<http::Uri>()
            .ok()
            .filter(|u| u.host().is_some_and(|h| !h.is_empty()))
            .ok_or_else(|| {
                ProxyError::InvalidUrl(crate::base::redact::url_without_userinfo(url))
            })?;
        return checked(uri, "the kubeconfig's proxy-url").map(Some);
    }
    let (value, origin) = match server.scheme_str() {
        Some("https") => (env.https_proxy.as_deref(), "HTTPS_PROXY"),
        Some("http") => (env.http_proxy.as_deref(), "HTTP_PROXY"),
        _ => (None, ""),
    };
    let Some(proxy) = value.and_then(parse_env_proxy) else {
        return Ok(None);
    };
    let host = server
        .host()
        .unwrap_or("")
        .trim_start_matches('[')
        .trim_end_matches(']');
    let port = server
        .port_u16()
        .unwrap_or(if server.scheme_str() == Some("http") {
            80
        } else {
            443
        });
    let no_proxy = NoProxy::parse(env.no_proxy.as_deref().unwrap_or(""));
    if host.is_empty() || no_proxy.bypasses(host, port) {
        return Ok(None);
    }
    if origin == "HTTP_PROXY" && env.cgi {
        return Err(ProxyError::Cgi);
    }
    checked(proxy, origin).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn np(v: &str, host: &str, port: u16) -> bool {
        NoProxy::parse(v).bypasses(host, port)
    }

    fn env(https: &str, no_proxy: &str) -> ProxyEnv {
        ProxyEnv {
            https_proxy: Some(https.into()).filter(|s: &String| !s.is_empty()),
            no_proxy: Some(no_proxy.into()).filter(|s: &String| !s.is_empty()),
            ..Default::default()
        }
    }

    fn uri(s: &str) -> http::Uri {
        s.parse().unwrap()
    }

    // The cases of golang.org/x/net/http/httpproxy/proxy_test.go `proxyForURLTests` and
    // `TestUseProxy` that apply to a single host.
    #[test]
    fn no_proxy_domain_rules_follow_go_httpproxy() {
        assert!(np("foo.com", "foo.com", 443));
        assert!(np("foo.com", "bar.foo.com", 443));
        assert!(!np("foo.com", "barfoo.com", 443));
        assert!(np(".foo.com", "bar.foo.com", 443));
        assert!(!np(".foo.com", "foo.com", 443));
        assert!(np("*.foo.com", "x.foo.com", 443));
        assert!(!np("*.foo.com", "foo.com", 443));
        assert!(np("foo.com:6443", "foo.com", 6443));
        assert!(!np("foo.com:6443", "foo.com", 443));
        assert!(np("FOO.com", "Bar.FOO.COM", 1));
        assert!(
            np("  a.com , ,b.com,", "b.com", 1),
            "blank entries are skipped"
        );
    }

    #[test]
    fn no_proxy_ip_and_cidr_rules_follow_go_httpproxy() {
        assert!(np("10.0.0.0/8", "10.1.2.3", 6443));
        assert!(!np("10.0.0.0/8", "11.1.2.3", 6443));
        assert!(
            np("10.1.2.3/8", "10.200.0.1", 1),
            "Go keeps the network of 10.1.2.3/8"
        );
        assert!(np("fd00::/8", "fd12::1", 443));
        assert!(np("10.1.2.3", "10.1.2.3", 443));
        assert!(np("10.1.2.3:6443", "10.1.2.3", 6443));
        assert!(!np("10.1.2.3:6443", "10.1.2.3", 443));
        assert!(np("[fd00::1]:443", "fd00::1", 443));
        assert!(np("fd00::1", "fd00::1", 8443));
        assert!(
            np("::ffff:10.0.0.1", "10.0.0.1", 443),
            "IPv4-mapped equals IPv4"
        );
        assert!(
            !np("10.0.0.0/8", "ten.example", 443),
            "a CIDR never matches a name"
        );
        assert!(!np("10.1.2.3", "example.com", 443));
        assert!(np("*", "anything.example", 1));
        assert!(!np("", "example.com", 443));
        assert!(
            !np(":80,[]:1,garbage/99", "example.com", 443),
            "malformed entries ignored"
        );
    }

    #[test]
    fn localhost_and_loopback_never_use_an_environment_proxy_as_in_go() {
        // httpproxy useProxy: `host == "localhost"` and `ip.IsLoopback()` return false.
        assert!(np("", "localhost", 443));
        assert!(np("", "127.0.0.1", 6443));
        assert!(np("", "127.9.9.9", 6443));
        assert!(np("", "::1", 6443));
        assert!(
            !np("", "localhost.", 6443),
            "only the literal name is special"
        );
    }

    #[test]
    fn lowercase_variables_win_and_empty_ones_count_as_unset() {
        let vars = [
            ("HTTPS_PROXY", "http://upper:1"),
            ("https_proxy", "http://lower:2"),
            ("HTTP_PROXY", "http://h:3"),
            ("http_proxy", ""),
            ("NO_PROXY", "a.com"),
            ("REQUEST_METHOD", ""),
        ];
        let e = ProxyEnv::from_lookup(|n| {
            vars.iter()
                .find(|(k, _)| *k == n)
                .map(|(_, v)| v.to_string())
        });
        assert_eq!(e.https_proxy.as_deref(), Some("http://lower:2"));
        assert_eq!(e.http_proxy.as_deref(), Some("http://h:3"));
        assert_eq!(e.no_proxy.as_deref(), Some("a.com"));
        assert!(!e.cgi);
    }

    #[test]
    fn kubeconfig_proxy_url_wins_and_ignores_no_proxy_even_for_loopback() {
        let e = env("http://envproxy:3128", "*");
        let got = choose(
            &uri("https://127.0.0.1:6443"),
            Some("http://kc-proxy:8080"),
            &e,
        );
        assert_eq!(got, Ok(Some(uri("http://kc-proxy:8080"))));
    }

    #[test]
    fn https_server_uses_https_proxy_and_http_server_uses_http_proxy() {
        let e = ProxyEnv {
            https_proxy: Some("proxy.corp:3128".into()),
            http_proxy: Some("http://plain:8080".into()),
            ..Default::default()
        };
        assert_eq!(
            choose(&uri("https://api.example:6443"), None, &e),
            Ok(Some(uri("http://proxy.corp:3128"))),
            "host:port is taken as http://host:port"
        );
        assert_eq!(
            choose(&uri("http://api.example:8080"), None, &e),
            Ok(Some(uri("http://plain:8080")))
        );
        let e = ProxyEnv {
            http_proxy: Some("http://plain:8080".into()),
            cgi: true,
            ..Default::default()
        };
        assert_eq!(
            choose(&uri("http://api.example"), None, &e),
            Err(ProxyError::Cgi)
        );
        assert_eq!(choose(&uri("https://api.example"), None, &e), Ok(None));
    }

    #[test]
    fn no_proxy_is_checked_against_the_server_not_the_proxy() {
        // kube-rs 5 matched NO_PROXY against the proxy's own address.
        let e = env("http://10.0.0.5:3128", "10.0.0.0/8");
        assert_eq!(
            choose(&uri("https://api.example:6443"), None, &e),
            Ok(Some(uri("http://10.0.0.5:3128")))
        );
        let e = env("http://proxy:3128", "api.example");
        assert_eq!(choose(&uri("https://api.example:6443"), None, &e), Ok(None));
        assert_eq!(
            choose(&uri("https://127.0.0.1:6443"), None, &env("http://p:1", "")),
            Ok(None)
        );
    }

    #[test]
    fn default_ports_are_filled_in_and_bad_schemes_refused_without_the_password() {
        let e = env("http://user:s3cret@proxy", "");
        assert_eq!(
            choose(&uri("https://api.example"), None, &e),
            Ok(Some(uri("http://user:s3cret@proxy:80/")))
        );
        assert_eq!(
            choose(&uri("https://api.example"), Some("socks5://s"), &e),
            Ok(Some(uri("socks5://s:1080/")))
        );
        let err = choose(&uri("https://api.example"), Some("ftp://u:s3cret@p:21"), &e)
            .unwrap_err()
            .to_string();
        assert!(err.contains("\"ftp\"") && !err.contains("s3cret"), "{err}");
        let err = choose(&uri("https://api.example"), Some("http://u:s3cret@"), &e)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("proxy-url") && !err.contains("s3cret"),
            "{err}"
        );
        assert_eq!(
            choose(&uri("https://api.example"), None, &env("not a url", "")),
            Ok(None),
            "Go ignores an environment proxy it cannot parse"
        );
    }
}
