package org.fjm2.tunnel;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A daemon's default node id, unique without configuration. The host name alone is not unique (cloned gateway images
 * and network namespaces share it), so the id is the host name and 48 random bits, drawn once and kept in a state
 * file, so that the daemon keeps its name in FJM2-Admin across restarts:
 * {@code <state dir>/tunnel-node-<interface>-<listen port>.id}, where {@code <interface>} is the hardware address of
 * the daemon's interface (or its IPv4 address when it has none). A clone of a gateway's disk that runs on another
 * network card therefore draws an id of its own; several daemons on one host (namespaces, other ports) have a file
 * each. A daemon on an ephemeral port (0) or without a writable state directory draws a new id each run.
 */
public final class NodeIds {

    private static final Logger LOG = LoggerFactory.getLogger(NodeIds.class);

    /** Where the state files go when systemd gives no {@code STATE_DIRECTORY}: under the user's home. */
    public static final String DEFAULT_STATE_SUBDIRECTORY = ".local/state/fjm2";
    /** Random bits of a default id, after the host name. */
    public static final int RANDOM_BYTES = 6;
    /** Longest host name part of a default id (FJM2-Admin takes ids of up to 64 characters). */
    public static final int MAX_HOST_PART = 40;

    /** What a node id may look like: FJM2-Admin's rule. */
    static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,63}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private NodeIds() {
    }

    /**
     * The default state directory: systemd's {@code $STATE_DIRECTORY} (set by {@code StateDirectory=fjm2} in the
     * unit, i.e. /var/lib/fjm2), else {@code ~/.local/state/fjm2}.
     */
    public static Path defaultStateDir() {
        String systemd = System.getenv("STATE_DIRECTORY");
        if (systemd != null && !systemd.isBlank()) {
            return Path.of(systemd.split(":")[0]);
        }
        return Path.of(System.getProperty("user.home"), DEFAULT_STATE_SUBDIRECTORY);
    }

    /** A fresh id: the host name (shortened, cleaned) and 48 random bits. */
    public static String random() {
        byte[] bits = new byte[RANDOM_BYTES];
        RANDOM.nextBytes(bits);
        return hostPart() + "-" + HexFormat.of().formatHex(bits);
    }

    /**
     * The id kept in {@code stateDir} for a daemon on {@code interfaceName} listening on {@code listen}; drawn and
     * written on first use. Never fails: without a usable file, a fresh id for this run (and a warning).
     */
    public static String loadOrCreate(Path stateDir, String interfaceName, InetSocketAddress listen) {
        if (listen.getPort() == 0) {
            return random();
        }
        Path file = stateFile(stateDir, interfaceName, listen);
        try {
            if (Files.isRegularFile(file)) {
                String kept = Files.readString(file, StandardCharsets.US_ASCII).strip();
                if (VALID.matcher(kept).matches()) {
                    return kept;
                }
                LOG.warn("node id state file {} holds no valid id: drawing a new one", file);
            }
            String id = random();
            Files.createDirectories(stateDir);
            Path temp = Files.createTempFile(stateDir, ".tunnel-node-", ".tmp");
            Files.writeString(temp, id + "\n", StandardCharsets.US_ASCII);
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            LOG.info("node id {} drawn and kept in {}", id, file);
            return id;
        } catch (IOException | RuntimeException e) {
            String id = random();
            LOG.warn("cannot keep the node id in {} ({}): using {} for this run only; give --state-dir a writable "
                    + "directory or set --node-id", file, e.toString(), id);
            return id;
        }
    }

    /** The state file of a daemon on {@code interfaceName} listening on {@code listen}. */
    public static Path stateFile(Path stateDir, String interfaceName, InetSocketAddress listen) {
        return stateDir.resolve("tunnel-node-" + interfaceKey(interfaceName, listen) + "-" + listen.getPort() + ".id");
    }

    /**
     * What tells this daemon's interface from a clone's: its hardware address, else its first IPv4 address, else
     * the listen address; "any" when nothing is known.
     */
    static String interfaceKey(String interfaceName, InetSocketAddress listen) {
        try {
            NetworkInterface nif = find(interfaceName, listen);
            if (nif != null) {
                byte[] mac = nif.getHardwareAddress();
                if (mac != null && mac.length > 0 && !allZero(mac)) {
                    return HexFormat.of().formatHex(mac);
                }
                for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                    if (a instanceof java.net.Inet4Address) {
                        return a.getHostAddress();
                    }
                }
            }
        } catch (SocketException | UnknownHostException e) {
            LOG.debug("interface {}: {}", interfaceName, e.toString());
        }
        InetAddress bound = listen.getAddress();
        return bound != null && !bound.isAnyLocalAddress() ? bound.getHostAddress() : "any";
    }

    private static NetworkInterface find(String interfaceName, InetSocketAddress listen)
            throws SocketException, UnknownHostException {
        if (interfaceName != null) {
            NetworkInterface byName = NetworkInterface.getByName(interfaceName);
            if (byName != null) {
                return byName;
            }
            return Character.isDigit(interfaceName.charAt(0))
                    ? NetworkInterface.getByInetAddress(InetAddress.getByName(interfaceName)) : null;
        }
        InetAddress bound = listen.getAddress();
        return bound != null && !bound.isAnyLocalAddress() ? NetworkInterface.getByInetAddress(bound) : null;
    }

    private static boolean allZero(byte[] bytes) {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static String hostPart() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "fjm2d";
        }
        String clean = host.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
        if (clean.isEmpty() || !Character.isLetterOrDigit(clean.charAt(0))) {
            clean = "fjm2d" + clean;
        }
        return clean.length() > MAX_HOST_PART ? clean.substring(0, MAX_HOST_PART) : clean;
    }
}
