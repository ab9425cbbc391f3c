package org.fjm2.containers;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Says once, on the build's console, why the container tests are skipped; the skipping itself is
 * {@code @Testcontainers(disabledWithoutDocker = true)}'s. Decides nothing.
 */
final class DockerNotice implements ExecutionCondition {

    private static final AtomicBoolean SAID = new AtomicBoolean();

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (!DockerClientFactory.instance().isDockerAvailable() && SAID.compareAndSet(false, true)) {
            System.out.println("fjm2-container-tests: no Docker engine here, the container tests are skipped "
                    + "(see fjm2-container-tests/README.md to run them)");
        }
        return ConditionEvaluationResult.enabled("only a notice");
    }
}
