package org.fjm2.testkit.netns;

/**
 * Run in a namespace by {@link TestNetworkTest}: builds a two-host LAN from there, checks that the hosts reach
 * each other and that teardown leaves nothing, and prints {@code NESTED OK} or {@code NESTED FAILED <why>}.
 */
public final class NestedNetworkCheck {

    private NestedNetworkCheck() {
    }

    public static void main(String[] args) {
        try {
            String unavailable = NetNs.unavailableReason().orElse(null);
            if (unavailable != null) {
                System.out.println("NESTED FAILED namespaces unavailable inside a namespace: " + unavailable);
                System.exit(1);
            }
            java.util.List<String> created;
            try (TestNetwork lan = TestNetwork.lan(2)) {
                created = lan.namespaces();
                if (!lan.host("h1").canReach(lan.host("h2").address())) {
                    System.out.println("NESTED FAILED h1 cannot reach h2");
                    System.exit(1);
                }
            }
            java.util.List<String> left = new java.util.ArrayList<>(NetNs.list());
            left.retainAll(created);
            System.out.println(left.isEmpty() ? "NESTED OK" : "NESTED FAILED left behind " + left);
            System.exit(left.isEmpty() ? 0 : 1);
        } catch (RuntimeException e) {
            System.out.println("NESTED FAILED " + e);
            System.exit(1);
        }
    }
}
