package org.fjm2.admin;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that owns the registry. Request threads queue changes and wait for their futures; the agent
 * drains the queue in batches, writes each batch to the database in one transaction, and only after the commit
 * updates its map, publishes a new {@link RegistrySnapshot} and completes the futures. So an acknowledged change
 * is durable, a failed one leaves no trace, and hundreds of concurrent registrations cost a few transactions.
 * The same thread expires silent nodes and sends the advertisements.
 */
final class RegistryAgent implements AutoCloseable {

    /** Most changes written in one transaction. */
    static final int MAX_BATCH = 256;
    /** Most changes waiting; beyond, requests are refused as busy rather than queued without bound. */
    static final int QUEUE_CAPACITY = 8192;
    /** Longest pause between expiry sweeps. */
    static final long MAX_SWEEP_INTERVAL_MILLIS = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(RegistryAgent.class);
    private static final long NONE = Long.MAX_VALUE;

    /** Outcome of a registration: the node as stored, whether it is new, and the list's stamp after it. */
    record Registered(Node node, boolean created, long lastModified) {
    }

    private sealed interface Command permits Register, Deregister, Probe, Wake {
    }

    /** Wakes the thread up to notice that it must stop. */
    private enum Wake implements Command {
        INSTANCE
    }

    private record Register(String id, String host, int port, int tokenIndex, CompletableFuture<Registered> result)
            implements Command {
    }

    /** Completes with the new stamp, or empty when the id was not registered. */
    private record Deregister(String id, int tokenIndex, CompletableFuture<Optional<Long>> result)
            implements Command {
    }

    /** Asks the database whether it still answers; completes with null when it does. */
    private record Probe(CompletableFuture<String> result) implements Command {
    }

    private final NodeDatabase database;
    private final TokenSet tokens;
    private final Advertiser advertiser;
    private final LongSupplier clock;
    private final long expiryMillis;
    private final long sweepIntervalMillis;
    private final long advertiseIntervalMillis;
    private final long advertiseChangeDelayMillis;
    private final int maxNodes;
    private final BlockingQueue<Command> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final Thread thread;
    private volatile RegistrySnapshot snapshot;
    private volatile CompletableFuture<String> pendingProbe;
    private volatile boolean running = true;

    // Owned by the agent thread.
    private final TreeMap<String, Node> nodes = new TreeMap<>();
    private final Map<String, Integer> tokenIndexOfNode = new ConcurrentHashMap<>(); // read by the advertiser
    private long lastModified;
    private long nextAdvertiseAt;
    private long changeAdvertiseAt = NONE;
    private long nextSweepAt;
    private volatile long expiredTotal;

    /**
     * Loads the stored registry and starts the agent thread.
     *
     * @throws SQLException when the database cannot be opened or read
     */
    RegistryAgent(NodeDatabase database, TokenSet tokens, AdminSettings settings, LongSupplier clock)
            throws SQLException, java.io.IOException {
        this.database = database;
        this.tokens = tokens;
        this.clock = clock;
        this.expiryMillis = settings.expiry().toMillis();
        this.sweepIntervalMillis = Math.max(10, Math.min(MAX_SWEEP_INTERVAL_MILLIS, expiryMillis / 4));
        this.advertiseIntervalMillis = settings.advertiseInterval().toMillis();
        this.advertiseChangeDelayMillis = settings.advertiseChangeDelay().toMillis();
        this.maxNodes = settings.maxNodes();
        RegistrySnapshot stored = database.open();
        for (Node n : stored.nodes()) {
            nodes.put(n.id(), n);
            int owner = tokens.indexOfOwner(n.owner());
            if (owner >= 0) {
                tokenIndexOfNode.put(n.id(), owner);
            }
        }
        this.lastModified = stored.lastModified();
        this.snapshot = stored;
        this.advertiser = new Advertiser(tokens, id -> tokenIndexOfNode.getOrDefault(id, 0), clock,
                settings.allowLoopback());
        long now = clock.getAsLong();
        this.nextSweepAt = now;
        this.nextAdvertiseAt = now;
        this.thread = new Thread(this::run, "fjm2-admin-registry");
        this.thread.setDaemon(true);
        this.thread.start();
        LOG.info("registry loaded: {} node(s), lastModified {}", nodes.size(), lastModified);
    }

    /** The registry as of the last committed change; never blocks. */
    RegistrySnapshot snapshot() {
        return snapshot;
    }

    /**
     * Registers {@code id} or refreshes it. The token at {@code tokenIndex} becomes the node's owner when the node is
     * new; for an existing node of another owner the future fails with {@link RegistryException.Kind#NOT_OWNER}.
     * The owner's token keys the node's advertisements.
     */
    CompletableFuture<Registered> register(String id, String host, int port, int tokenIndex) {
        CompletableFuture<Registered> result = new CompletableFuture<>();
        submit(new Register(id, host, port, tokenIndex, result), result);
        return result;
    }

    /**
     * Removes {@code id}: completes with the new stamp, or empty when {@code id} is not registered; fails with
     * {@link RegistryException.Kind#NOT_OWNER} when the token at {@code tokenIndex} does not own it.
     */
    CompletableFuture<Optional<Long>> deregister(String id, int tokenIndex) {
        CompletableFuture<Optional<Long>> result = new CompletableFuture<>();
        submit(new Deregister(id, tokenIndex, result), result);
        return result;
    }

    /**
     * Checks, on the agent's thread, that the database answers: completes with {@code null} when it does, else with
     * the reason. Probes that arrive while one is queued share it, so a flood of health checks costs one query.
     */
    CompletableFuture<String> probeDatabase() {
        CompletableFuture<String> pending = pendingProbe;
        if (pending != null && !pending.isDone()) {
            return pending;
        }
        CompletableFuture<String> result = new CompletableFuture<>();
        pendingProbe = result;
        submit(new Probe(result), result);
        return result;
    }

    /** Nodes dropped by expiry since start. */
    long expiredTotal() {
        return expiredTotal;
    }

    /** Advertisements sent and those that could not be sent, since start. */
    long[] advertisementCounts() {
        return new long[] {advertiser.sent(), advertiser.failed()};
    }

    private void submit(Command command, CompletableFuture<?> result) {
        if (!running) {
            result.completeExceptionally(new RegistryException(RegistryException.Kind.STOPPED, "shutting down", null));
        } else if (!queue.offer(command)) {
            result.completeExceptionally(new RegistryException(RegistryException.Kind.BUSY,
                    "more than " + QUEUE_CAPACITY + " changes are waiting; retry later", null));
        }
    }

    private void run() {
        List<Command> batch = new ArrayList<>(MAX_BATCH);
        try {
            while (running) {
                long now = clock.getAsLong();
                long wait = Math.min(Math.min(nextSweepAt, nextAdvertiseAt), changeAdvertiseAt) - now;
                Command first = wait > 0 ? queue.poll(wait, TimeUnit.MILLISECONDS) : queue.poll();
                if (first != null) {
                    batch.add(first);
                    queue.drainTo(batch, MAX_BATCH - 1);
                    applyBatch(batch);
                    batch.clear();
                }
                runTimers(clock.getAsLong());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            LOG.error("registry agent failed; the registry refuses changes from now on", e);
        } finally {
            running = false;
            failPending(batch);
        }
    }

    private void applyBatch(List<Command> batch) {
        long now = clock.getAsLong();
        Map<String, Node> upserts = new LinkedHashMap<>();
        Set<String> deletes = new LinkedHashSet<>();
        Map<String, Integer> tokenIndexes = new HashMap<>();
        List<LongConsumer> completions = new ArrayList<>(batch.size());
        boolean changed = false;
        int size = nodes.size();
        for (Command command : batch) {
            if (command instanceof Probe p) {
                p.result.complete(database.problem());
            } else if (command instanceof Register r) {
                Node existing = deletes.contains(r.id) ? null : upserts.getOrDefault(r.id, nodes.get(r.id));
                String owner = tokens.owner(r.tokenIndex);
                if (existing != null && existing.owner() != null && !existing.owner().equals(owner)) {
                    r.result.completeExceptionally(notOwner(r.id));
                    continue;
                }
                if (existing == null && size >= maxNodes) {
                    r.result.completeExceptionally(new RegistryException(RegistryException.Kind.FULL,
                            "the registry holds its maximum of " + maxNodes + " nodes", null));
                    continue;
                }
                Node node = existing == null
                        ? new Node(r.id, r.host, r.port, now, now, owner)
                        : new Node(r.id, r.host, r.port, existing.registered(), now, owner);
                boolean nodeChanged = existing == null || existing.addressDiffers(r.host, r.port);
                changed |= nodeChanged;
                size += existing == null ? 1 : 0;
                upserts.put(r.id, node);
                deletes.remove(r.id);
                tokenIndexes.put(r.id, r.tokenIndex);
                completions.add(committed -> r.result.complete(new Registered(node, existing == null, committed)));
            } else if (command instanceof Deregister d) {
                Node existing = deletes.contains(d.id) ? null : upserts.getOrDefault(d.id, nodes.get(d.id));
                if (existing == null) {
                    completions.add(committed -> d.result.complete(Optional.empty()));
                    continue;
                }
                if (existing.owner() != null && !existing.owner().equals(tokens.owner(d.tokenIndex))) {
                    d.result.completeExceptionally(notOwner(d.id));
                    continue;
                }
                changed = true;
                size--;
                upserts.remove(d.id);
                deletes.add(d.id);
                completions.add(committed -> d.result.complete(Optional.of(committed)));
            }
        }
        long stamp = changed ? Math.max(lastModified + 1, now) : lastModified;
        try {
            database.write(upserts.values(), deletes, lastModified, stamp);
        } catch (SQLException | RuntimeException e) {
            LOG.error("database write of {} change(s) failed; none stored", batch.size(), e);
            RegistryException failure = new RegistryException(RegistryException.Kind.STORAGE,
                    "the registry database refused the change", e);
            batch.forEach(command -> fail(command, failure));
            return;
        }
        for (String id : deletes) {
            nodes.remove(id);
            tokenIndexOfNode.remove(id);
        }
        nodes.putAll(upserts);
        tokenIndexOfNode.putAll(tokenIndexes);
        publish(stamp, changed, now);
        completions.forEach(c -> c.accept(stamp));
    }

    private static RegistryException notOwner(String id) {
        return new RegistryException(RegistryException.Kind.NOT_OWNER,
                "node " + id + " was registered with another token; only that token may change or delete it", null);
    }

    private void runTimers(long now) {
        if (now >= nextSweepAt) {
            nextSweepAt = now + sweepIntervalMillis;
            expire(now);
        }
        if (now >= nextAdvertiseAt || now >= changeAdvertiseAt) {
            advertiser.advertise(snapshot);
            nextAdvertiseAt = now + advertiseIntervalMillis;
            changeAdvertiseAt = NONE;
        }
    }

    private void expire(long now) {
        long cutoff = now - expiryMillis;
        List<String> silent = new ArrayList<>();
        for (Node n : nodes.values()) {
            if (n.lastSeen() < cutoff) {
                silent.add(n.id());
            }
        }
        if (silent.isEmpty()) {
            return;
        }
        long stamp = Math.max(lastModified + 1, now);
        try {
            database.write(List.of(), silent, lastModified, stamp);
        } catch (SQLException | RuntimeException e) {
            LOG.error("database write of the expiry of {} node(s) failed; retrying at the next sweep", silent.size(), e);
            return;
        }
        silent.forEach(id -> {
            nodes.remove(id);
            tokenIndexOfNode.remove(id);
        });
        expiredTotal += silent.size();
        LOG.info("expired {} node(s) silent for more than {}: {}", silent.size(), Duration.ofMillis(expiryMillis),
                silent.size() <= 10 ? silent : silent.subList(0, 10) + " ...");
        publish(stamp, true, now);
    }

    private void publish(long stamp, boolean changed, long now) {
        lastModified = stamp;
        snapshot = new RegistrySnapshot(stamp, new ArrayList<>(nodes.values()));
        if (changed && changeAdvertiseAt == NONE) {
            changeAdvertiseAt = now + advertiseChangeDelayMillis;
        }
    }

    private void failPending(List<Command> batch) {
        List<Command> left = new ArrayList<>(batch);
        queue.drainTo(left);
        RegistryException stopped = new RegistryException(RegistryException.Kind.STOPPED, "shutting down", null);
        left.forEach(command -> fail(command, stopped));
    }

    private static void fail(Command command, RegistryException failure) {
        if (command instanceof Register r) {
            r.result.completeExceptionally(failure);
        } else if (command instanceof Deregister d) {
            d.result.completeExceptionally(failure);
        } else if (command instanceof Probe p) {
            p.result.complete(failure.getMessage());
        }
    }

    /** Stops the thread (changes already queued are refused), then closes the database and the socket. */
    @Override
    public void close() {
        running = false;
        // No interrupt: it would close the database's file channel under a write. The wake-up (or, with a full
        // queue, the poll timeout of at most one sweep interval) lets the thread see that it must stop.
        queue.offer(Wake.INSTANCE);
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            database.close();
        } catch (SQLException e) {
            LOG.warn("closing the registry database failed", e);
        }
        try {
            advertiser.close();
        } catch (java.io.IOException e) {
            LOG.warn("closing the advertisement socket failed", e);
        }
    }
}
