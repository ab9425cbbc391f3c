package org.fjm2.jms;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The JMS provider's structure (shared/DESIGN.md, issue 15): no package cycles; the engine used through its public
 * face only (the facade, its API types, the transport layer and the toolkit), never its internals; nothing of the
 * tunnel, the admin, the store or the benchmarks.
 */
class ArchitectureTest {

    static final JavaClasses PROVIDER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.fjm2.jms");

    @Test
    void packagesHaveNoCycles() {
        slices().matching("org.fjm2.(**)").should().beFreeOfCycles().check(PROVIDER);
    }

    @Test
    void theEngineIsUsedThroughItsPublicFaceOnly() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.fjm2.norm.engine..",
                "org.fjm2.norm.protocol..", "org.fjm2.norm.sender..", "org.fjm2.norm.receiver..",
                "org.fjm2.norm.fec..", "org.fjm2.norm.object..").check(PROVIDER);
    }

    @Test
    void theProviderKnowsNothingOfTunnelsAdminStoreOrBenchmarks() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.fjm2.tunnel..", "org.fjm2.admin..",
                "org.fjm2.store..", "org.fjm2.bench..", "org.fjm2.testkit..")
                .because("the store (fjm2-store) builds on the provider's wire format, never the other way round")
                .check(PROVIDER);
    }

    @Test
    void theProviderCarriesNoCommandLine() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("picocli..", "org.fjm2.cli..")
                .because("applications embed this jar; the command-line tools live in fjm2-cli").check(PROVIDER);
    }

    @Test
    void onlyTheMetricsPackageUsesMicrometer() {
        noClasses().that().resideOutsideOfPackage("org.fjm2.jms.metrics..")
                .should().dependOnClassesThat().resideInAnyPackage("io.micrometer..")
                .because("Micrometer is an optional dependency: applications without it must not need it")
                .check(PROVIDER);
    }
}
