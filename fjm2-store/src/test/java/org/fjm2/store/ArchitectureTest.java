package org.fjm2.store;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The store's place (shared/DESIGN.md): it builds on fjm2-core's wire format and transport SPI, never on its JMS
 * classes (a store keeps bytes, it does not run a JMS connection); fjm2-core knows nothing of the store; the store
 * carries no command line (that is `fjm2 store` in fjm2-cli) and no logging backend.
 */
class ArchitectureTest {

    static final JavaClasses STORE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.fjm2.store");

    static final JavaClasses PROVIDER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.fjm2.jms");

    @Test
    void theStoreUsesTheWireFormatAndTheTransportNotTheJmsClasses() {
        noClasses().should().dependOnClassesThat(DescribedPredicate.describe("JMS classes of fjm2-core",
                                c -> c.getPackageName().startsWith("org.fjm2.jms")
                                        && !c.getPackageName().startsWith("org.fjm2.jms.wire")
                                        && !c.getPackageName().startsWith("org.fjm2.jms.transport")
                                        // the names of the JMS parameters, accepted in the group's URL and ignored
                                        && !c.getName().equals("org.fjm2.jms.JmsParameters")))
                .orShould().dependOnClassesThat().resideInAPackage("jakarta.jms..")
                .because("the store keeps messages as the publisher encoded them (fjm2-core's docs/wire-format.md)")
                .check(STORE);
    }

    @Test
    void theProviderDoesNotDependOnTheStore() {
        noClasses().should().dependOnClassesThat().resideInAPackage("org.fjm2.store..")
                .because("applications add fjm2-core alone; the store is a process of its own").check(PROVIDER);
    }

    @Test
    void noCommandLineAndNoLoggingBackend() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("picocli..", "org.fjm2.cli..",
                "ch.qos.logback..").check(STORE);
    }
}
