package org.fjm2.jms.transport.inmem;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

/** The members of one {@code inmem://NAME} group; hands out node ids and routes objects between members. */
final class InMemoryGroup {

    private final String name;
    private final List<InMemoryTransport> members = new CopyOnWriteArrayList<>();
    private int nextNodeId = 1;
    private boolean retired;
    private BiConsumer<String, InMemoryGroup> retire;

    InMemoryGroup(String name) {
        this.name = name;
    }

    String name() {
        return name;
    }

    /** Adds a member, or returns null when this group was already retired (its last member left). */
    synchronized InMemoryTransport join(InMemorySettings settings, BiConsumer<String, InMemoryGroup> onEmpty) {
        if (retired) {
            return null;
        }
        this.retire = onEmpty;
        InMemoryTransport transport = new InMemoryTransport(this, nextNodeId++, settings);
        members.add(transport);
        return transport;
    }

    synchronized void leave(InMemoryTransport member) {
        members.remove(member);
        for (InMemoryTransport other : members) {
            other.senderGone(member.localNodeId());
        }
        if (members.isEmpty() && !retired) {
            retired = true;
            retire.accept(name, this);
        }
    }

    /** Members in join order (a stable order keeps seeded loss injection reproducible). */
    List<InMemoryTransport> members() {
        return members;
    }
}
