package com.example.messaging.inbox;

import org.springframework.boot.test.context.SpringBootTest;

import com.example.messaging.relay.RelayTestApplication;
import com.example.testsupport.FreshInfrastructure;

/** The backlog drained in batches of up to 8 deliveries (the default, half the prefetch). */
@SpringBootTest(classes = { RelayTestApplication.class, InboxDrainBenchmark.Handlers.class }, properties = {
        "spring.application.name=inbox-drain-batched", "messaging.inbox.batch.size=8",
        "messaging.relay.exchanges=order.events,risk.events",
        "spring.cloud.stream.bindings.inbox-in-0.consumer.auto-startup=false" })
@FreshInfrastructure
class InboxDrainBatchedBenchmarkIntegrationTests extends InboxDrainBenchmark {
}
