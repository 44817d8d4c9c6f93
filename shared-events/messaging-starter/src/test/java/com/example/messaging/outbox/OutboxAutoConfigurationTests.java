package com.example.messaging.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.r2dbc.core.DatabaseClient;

import com.example.messaging.support.StubConnectionFactory;

import io.r2dbc.spi.ConnectionFactory;

class OutboxAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OutboxAutoConfiguration.class));

    @Test
    void aServiceWithADatabaseGetsAWriter() {
        runner.withBean(ConnectionFactory.class, StubConnectionFactory::new)
                .run(context -> assertThat(context).hasSingleBean(OutboxWriter.class));
    }

    @Test
    void noDatabaseNoWriter() {
        runner.run(context -> assertThat(context).doesNotHaveBean(OutboxWriter.class));
    }

    @Test
    void aWriterOfTheApplicationWins() {
        OutboxWriter own = new OutboxWriter(DatabaseClient.create(new StubConnectionFactory()));
        runner.withBean(ConnectionFactory.class, StubConnectionFactory::new)
                .withBean(OutboxWriter.class, () -> own)
                .run(context -> assertThat(context.getBean(OutboxWriter.class)).isSameAs(own));
    }
}
