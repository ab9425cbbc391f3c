package org.fjm2.norm;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The engine's structure (shared/DESIGN.md, issue 15): packages without cycles; {@link NormSession} the facade on top
 * that nothing inside depends on; fjm2-norm knows nothing of JMS, tunnels, the admin or benchmarks.
 */
class ArchitectureTest {

    static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.fjm2.norm");

    @Test
    void packagesHaveNoCycles() {
        slices().matching("org.fjm2.(**)").should().beFreeOfCycles().check(ENGINE);
    }

    @Test
    void nothingInsideDependsOnTheFacade() {
        noClasses().that().resideInAPackage("org.fjm2.norm.*..")
                .should().dependOnClassesThat().resideInAPackage("org.fjm2.norm")
                .because("NormSession is the facade on top of the engine").check(ENGINE);
    }

    @Test
    void theApiDependsOnNoEngineInternals() {
        noClasses().that().resideInAPackage("org.fjm2.norm.api..")
                .should().dependOnClassesThat().resideInAnyPackage("org.fjm2.norm.engine..",
                        "org.fjm2.norm.protocol..", "org.fjm2.norm.sender..", "org.fjm2.norm.receiver..",
                        "org.fjm2.norm.transport..", "org.fjm2.norm.fec..")
                .check(ENGINE);
    }

    @Test
    void theEngineKnowsNothingOfJmsTunnelsAdminOrBenchmarks() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.fjm2.jms..", "org.fjm2.tunnel..",
                "org.fjm2.admin..", "org.fjm2.bench..", "org.fjm2.testkit..", "jakarta.jms..")
                .check(ENGINE);
    }

    @Test
    void theEngineCarriesNoCommandLine() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("picocli..", "org.fjm2.cli..")
                .because("applications embed this jar; the command-line tools live in fjm2-cli").check(ENGINE);
    }
}
