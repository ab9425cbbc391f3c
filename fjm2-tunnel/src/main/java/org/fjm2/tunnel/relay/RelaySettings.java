package org.fjm2.tunnel.relay;

import java.time.Duration;
import org.fjm2.tunnel.security.TunnelKey;

/**
 * What the {@link Relay} needs of the daemon's configuration (the daemon's {@code TunnelConfig} makes one; the relay
 * never sees the whole configuration, so that it depends on nothing above it). Defaults and meanings are documented on
 * {@code TunnelConfig}'s constants.
 *
 * @param nodeId this daemon's node id
 * @param key the key shared by the peers
 * @param seal seal payloads with AES-256-GCM
 * @param peerRate pacing rate per peer, bit/s (0: unpaced)
 * @param peerBurstBytes pacer burst per peer
 * @param peerQueueBytes pacer queue per peer
 * @param hopByHop answer NACKs from the repair cache
 * @param repairCacheBytes repair cache size
 * @param repairCacheEntries repair cache entries
 * @param repairHoldoff no second copy of a symbol to the same side within this
 * @param transit relay between peers
 * @param acceptUnlisted accept authentic daemons that are not listed
 * @param filterCapacity packets remembered by the duplicate filter
 * @param keepalive period of the hellos to a peer that answers
 * @param helloRetry period of the hellos to a peer that has not answered yet (or not lately)
 * @param peerSilence a peer not heard for this long gets no more data until it answers again
 * @param peerTimeout a learned (unlisted) peer silent this long is forgotten
 * @param maxClockSkewSeconds tolerated clock difference of a frame's timestamp
 */
public record RelaySettings(String nodeId, TunnelKey key, boolean seal, long peerRate, int peerBurstBytes,
                            long peerQueueBytes, boolean hopByHop, long repairCacheBytes, int repairCacheEntries,
                            Duration repairHoldoff, boolean transit, boolean acceptUnlisted, int filterCapacity,
                            Duration keepalive, Duration helloRetry, Duration peerSilence, Duration peerTimeout,
                            long maxClockSkewSeconds) {
}
