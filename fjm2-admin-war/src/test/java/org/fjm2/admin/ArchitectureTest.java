package org.fjm2.admin;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** FJM2-Admin is off the data path (shared/DESIGN.md): it depends on no other module. */
class ArchitectureTest {

    static final JavaClasses ADMIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.fjm2.admin");

    @Test
    void dependsOnNoOtherModule() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.fjm2.norm..", "org.fjm2.jms..",
                "org.fjm2.tunnel..", "org.fjm2.bench..", "org.fjm2.testkit..").check(ADMIN);
    }
}
