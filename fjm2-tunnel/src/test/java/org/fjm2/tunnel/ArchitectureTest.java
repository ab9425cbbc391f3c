package org.fjm2.tunnel;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * FJM2D's structure (shared/DESIGN.md, issue 15; the parts are listed in fjm2-tunnel/README.md): no package cycles;
 * the forwarding parts below the daemon know nothing of it or of its command; the tunnel relays NORM packets and never
 * decodes JMS; of fjm2-norm it uses only what its README names (the packet codec, the LAN transport, the transport's
 * settings type and the toolkit); nothing of the admin WAR, the benchmarks or the test kit.
 */
class ArchitectureTest {

    static final JavaClasses TUNNEL = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.fjm2.tunnel");

    /** The parts of fjm2-norm the tunnel may use (fjm2-tunnel/README.md, "Parts"). */
    static final String[] ENGINE_PARTS_ALLOWED = {"org.fjm2.norm.codec..", "org.fjm2.norm.transport..",
            "org.fjm2.norm.api..", "org.fjm2.norm.util.."};

    @Test
    void packagesHaveNoCycles() {
        slices().matching("org.fjm2.(**)").should().beFreeOfCycles().check(TUNNEL);
    }

    @Test
    void forwardingPartsDependOnNeitherTheDaemonNorItsCommand() {
        noClasses().that().resideInAnyPackage("org.fjm2.tunnel.relay..", "org.fjm2.tunnel.repair..",
                        "org.fjm2.tunnel.security..")
                .should().dependOnClassesThat().resideInAnyPackage("org.fjm2.tunnel", "org.fjm2.tunnel.tool..")
                .because("the daemon wires the parts; the parts get their settings as small types of their own")
                .check(TUNNEL);
    }

    @Test
    void theTunnelNeverDecodesJms() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.fjm2.jms..", "jakarta.jms..")
                .because("FJM2D relays NORM packets byte for byte").check(TUNNEL);
    }

    @Test
    void theEngineIsUsedOnlyThroughTheParts() {
        noClasses().should().dependOnClassesThat(resideInAPackage("org.fjm2.norm..")
                        .and(not(
                                resideInAnyPackage(ENGINE_PARTS_ALLOWED))))
                .because("the tunnel uses fjm2-norm's codec, transport and toolkit, never the engine's internals")
                .check(TUNNEL);
    }

    @Test
    void nothingOfTheAdminWarTheBenchmarksOrTheTestKit() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.fjm2.admin..", "org.fjm2.bench..",
                "org.fjm2.testkit..").check(TUNNEL);
    }
}
