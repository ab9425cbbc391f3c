/**
 * Peer authentication: the shared key ({@link org.fjm2.tunnel.security.TunnelKey}, from a file), the authenticated
 * and optionally sealed frame between daemons ({@link org.fjm2.tunnel.security.FrameCodec}) and replay protection
 * ({@link org.fjm2.tunnel.security.ReplayProtection}).
 */
package org.fjm2.tunnel.security;
