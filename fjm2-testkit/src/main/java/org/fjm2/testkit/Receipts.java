package org.fjm2.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What member processes of a shared subscription printed: one line {@code GOT seq redelivered} per message they got
 * (anything may follow on the line). Kill tests join the outputs of several processes to check that every message
 * reached a member and which copies came flagged redelivered.
 */
public final class Receipts {

    private static final Pattern GOT = Pattern.compile("GOT (\\d+) (true|false)");

    private Receipts() {
    }

    /** Per message number, the redelivered flag of each copy, over all the outputs given. */
    public static Map<Integer, List<Boolean>> parse(String... outputs) {
        Map<Integer, List<Boolean>> got = new TreeMap<>();
        for (String output : outputs) {
            Matcher m = GOT.matcher(output);
            while (m.find()) {
                got.computeIfAbsent(Integer.parseInt(m.group(1)), k -> new ArrayList<>())
                        .add(Boolean.parseBoolean(m.group(2)));
            }
        }
        return got;
    }
}
