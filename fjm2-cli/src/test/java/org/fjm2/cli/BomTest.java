package org.fjm2.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * fjm2-bom has no parent (so that importing it pins no third-party version); this keeps it in step with the
 * project: the same version, and every module the parent builds listed, with its packaging.
 */
class BomTest {

    static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();

    @Test
    void theBomListsEveryModuleAtTheProjectsVersion() throws Exception {
        Document parent = parse(ROOT.resolve("pom.xml"));
        Document bom = parse(ROOT.resolve("fjm2-bom/pom.xml"));
        String version = child(parent.getDocumentElement(), "version");
        assertThat(child(bom.getDocumentElement(), "version")).isEqualTo(version);
        assertThat(child(bom.getDocumentElement(), "parent")).as("the BOM has no parent").isNull();

        Map<String, String> expected = new LinkedHashMap<>();
        for (String module : children(parent.getDocumentElement(), "modules", "module")) {
            if (!module.equals("fjm2-bom")) {
                Element pom = parse(ROOT.resolve(module).resolve("pom.xml")).getDocumentElement();
                String packaging = child(pom, "packaging");
                expected.put(child(pom, "artifactId"), packaging == null ? "jar" : packaging);
            }
        }
        Map<String, String> listed = new LinkedHashMap<>();
        NodeList dependencies = bom.getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element d = (Element) dependencies.item(i);
            assertThat(child(d, "groupId")).isEqualTo("org.fjm2");
            assertThat(child(d, "version")).isEqualTo("${project.version}");
            String type = child(d, "type");
            listed.put(child(d, "artifactId"), type == null ? "jar" : type);
        }
        assertThat(listed).isEqualTo(expected);
    }

    private static Document parse(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(file.toFile());
    }

    /** The text of a direct child element, or null. */
    private static String child(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e.getTextContent().trim();
            }
        }
        return null;
    }

    private static List<String> children(Element parent, String list, String item) {
        List<String> values = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(list)) {
                NodeList items = e.getElementsByTagName(item);
                for (int i = 0; i < items.getLength(); i++) {
                    values.add(items.item(i).getTextContent().trim());
                }
            }
        }
        return values;
    }
}
