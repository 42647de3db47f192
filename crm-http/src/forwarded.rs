//! The client's address behind load balancers (`--trusted-proxy`, API.md §16).
//!
//! Behind HAProxy every connection comes from the proxy, so the per-address limits (failed
//! authentications, the client's pages) would count every client as one. A proxy names
//! the client in `X-Forwarded-For`, appending the address it saw to what the client (or an
//! earlier proxy) sent; anyone can send that header, so it is believed only from the
//! networks listed as trusted proxies, and only as far as it was written by them: the
//! client is the rightmost address that is not a trusted proxy (walking from the
//! connection's own address leftwards through the header). A connection from anywhere
//! else is counted by its own address, whatever its header says.

use std::net::{IpAddr, SocketAddr};

use http::HeaderMap;
use ipnet::IpNet;

/// The networks whose `X-Forwarded-For` is believed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

/// Reads one `--trusted-proxy`: a network in CIDR form (`10.0.0.0/8`, `fd00::/8`) or one
/// address (`127.0.0.1`, a network of one).
pub fn parse_network(text: &str) -> Result<IpNet, String> {
    let text = text.trim();
    text.parse::<IpNet>()
        .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
        .map_err(|_| {
            "a network as CIDR (10.0.0.0/8, fd00::/8) or one address (127.0.0.1)".to_owned()
        })
}

/// One `X-Forwarded-For` entry: an address, optionally with a port (`[::1]:80`,
/// `192.0.2.1:5678`).
fn entry(text: &str) -> Option<IpAddr> {
    let text = text.trim();
    text.parse::<IpAddr>()
        .ok()
        .or_else(|| text.parse::<SocketAddr>().ok().map(|a| a.ip()))
        .map(|ip| ip.to_canonical())
}

impl TrustedProxies {
    /// Trusts `networks` (none: every header is ignored).
    pub fn new(networks: Vec<IpNet>) -> TrustedProxies {
        TrustedProxies(networks)
    }

    /// Whether any proxy is trusted.
    pub fn any(&self) -> bool {
        !self.0.is_empty()
    }

    /// Whether `ip` is in a trusted network.
    pub fn trusts(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// The client's address for a connection from `peer` with `headers`: the rightmost
    /// `X-Forwarded-For` address that is not a trusted proxy, when `peer` is one; else
    /// `peer`. An entry that is not an address ends the walk at the proxy that wrote it
    /// (nothing further left can be believed).
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let mut client = peer;
        // Several headers are one list, in order.
        let hops = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .collect::<Vec<_>>();
        for hop in hops.iter().rev() {
            let Some(ip) = entry(hop) else {
                break;
            };
            client = ip;
            if !self.trusts(ip) {
                break;
            }
        }
        client
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proxies(nets: &[&str]) -> TrustedProxies {
        TrustedProxies::new(nets.iter().map(|n| parse_network(n).unwrap()).collect())
    }

    fn headers(values: &[&str]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for v in values {
            map.append("x-forwarded-for", v.parse().unwrap());
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_trusted_proxy_s_header_names_the_client() {
        let trusted = proxies(&["127.0.0.1/32"]);
        let client = trusted.client(ip("127.0.0.1"), &headers(&["203.0.113.7"]));
        assert_eq!(client, ip("203.0.113.7"));
    }

    #[test]
    fn the_header_of_anyone_else_is_ignored() {
        let trusted = proxies(&["10.0.0.0/8"]);
        let client = trusted.client(ip("198.51.100.2"), &headers(&["203.0.113.7"]));
        assert_eq!(client, ip("198.51.100.2"));
        let none = TrustedProxies::default();
        assert_eq!(
            none.client(ip("127.0.0.1"), &headers(&["203.0.113.7"])),
            ip("127.0.0.1")
        );
    }

    #[test]
    fn what_the_client_wrote_itself_left_of_the_proxies_is_not_believed() {
        // The client sent "1.2.3.4" itself; the proxy appended the address it saw.
        let trusted = proxies(&["10.0.0.0/8", "127.0.0.1"]);
        let forged = headers(&["1.2.3.4, 203.0.113.7, 10.1.2.3"]);
        assert_eq!(trusted.client(ip("127.0.0.1"), &forged), ip("203.0.113.7"));
        // Split over two headers, the same list.
        let split = headers(&["1.2.3.4", "203.0.113.7:5555, 10.1.2.3"]);
        assert_eq!(trusted.client(ip("127.0.0.1"), &split), ip("203.0.113.7"));
    }

    #[test]
    fn garbage_stops_the_walk_at_the_last_trusted_hop() {
        let trusted = proxies(&["127.0.0.0/8"]);
        let client = trusted.client(ip("127.0.0.1"), &headers(&["unknown, 127.0.0.5"]));
        assert_eq!(client, ip("127.0.0.5"));
        assert_eq!(
            trusted.client(ip("127.0.0.1"), &HeaderMap::new()),
            ip("127.0.0.1")
        );
    }

    #[test]
    fn ipv6_and_mapped_addresses_are_understood() {
        let trusted = proxies(&["::1", "fd00::/8"]);
        let client = trusted.client(ip("::1"), &headers(&["[2001:db8::1]:443, fd00::2"]));
        assert_eq!(client, ip("2001:db8::1"));
        let v4 = proxies(&["127.0.0.1"]);
        assert_eq!(
            v4.client(ip("::ffff:127.0.0.1"), &headers(&["192.0.2.9"])),
            ip("192.0.2.9")
        );
    }

    #[test]
    fn a_bad_network_is_refused_with_the_forms_accepted() {
        assert!(parse_network("10.0.0.0/33").is_err());
        assert!(parse_network("proxy.example").unwrap_err().contains("CIDR"));
        assert_eq!(
            parse_network("192.0.2.1").unwrap(),
            "192.0.2.1/32".parse::<IpNet>().unwrap()
        );
    }
}
