/**
 * FJM2D's client of FJM2-Admin, the registry of tunnel peers.
 *
 * <p>{@link org.fjm2.tunnel.admin.AdminClient} registers the daemon, keeps the registration alive, and hands the
 * tunnel the list of its peers ({@link org.fjm2.tunnel.admin.PeerAddress}) whenever it changes. The admin tells
 * daemons about changes with a small authenticated UDP datagram sent to the tunnel's own port: the tunnel passes
 * every datagram that is not its own traffic to {@link org.fjm2.tunnel.admin.AdminClient#offerAdvertisement}
 * (which checks the magic first, so other traffic costs one comparison). A daemon that listens on a separate port
 * uses {@link org.fjm2.tunnel.admin.AdvertisementListener}. The datagram format is documented in
 * {@code fjm2-admin-war/README.md}.
 *
 * <pre>{@code
 * AdminClient admin = new AdminClient(URI.create("https://admin.example.org/"), token, "lan-a",
 *         "203.0.113.7", tunnelPort, Duration.ofSeconds(30), peers -> tunnel.setPeers(peers));
 * admin.start();
 * // in the tunnel's receive loop, for datagrams that are not NORM/tunnel traffic:
 * admin.offerAdvertisement(datagram.content());
 * // on shutdown:
 * admin.close();
 * }</pre>
 */
package org.fjm2.tunnel.admin;
