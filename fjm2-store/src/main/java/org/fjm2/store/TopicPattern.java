package org.fjm2.store;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Which topics a store keeps: comma-separated names where {@code *} stands for any characters (dots included), e.g.
 * {@code orders.*,prices} or {@code *} for all.
 */
public final class TopicPattern {

    private final String text;
    private final List<Pattern> patterns;

    private TopicPattern(String text, List<Pattern> patterns) {
        this.text = text;
        this.patterns = patterns;
    }

    public static TopicPattern parse(String text) {
        List<Pattern> patterns = new ArrayList<>();
        for (String part : text.split(",")) {
            String glob = part.trim();
            if (glob.isEmpty()) {
                throw new IllegalArgumentException("empty topic pattern in '" + text + "'");
            }
            StringBuilder regex = new StringBuilder();
            String[] literals = glob.split("\\*", -1);
            for (int i = 0; i < literals.length; i++) {
                regex.append(i == 0 ? "" : ".*").append(Pattern.quote(literals[i]));
            }
            patterns.add(Pattern.compile(regex.toString()));
        }
        return new TopicPattern(text, List.copyOf(patterns));
    }

    public boolean matches(String topic) {
        for (Pattern p : patterns) {
            if (p.matcher(topic).matches()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return text;
    }
}
