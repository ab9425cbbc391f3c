package org.fjm2.spring.boot;

import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * FJM2 has topics and no queues: unless the application says otherwise, Spring's JMS support resolves destination
 * names as topics ({@code spring.jms.pub-sub-domain=true}). Added last, so that every property source of the
 * application wins over it.
 */
public class Fjm2EnvironmentDefaults implements EnvironmentPostProcessor {

    static final String SOURCE_NAME = "fjm2Defaults";
    static final String PUB_SUB_DOMAIN = "spring.jms.pub-sub-domain";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        environment.getPropertySources().addLast(new MapPropertySource(SOURCE_NAME, Map.of(PUB_SUB_DOMAIN, "true")));
    }
}
