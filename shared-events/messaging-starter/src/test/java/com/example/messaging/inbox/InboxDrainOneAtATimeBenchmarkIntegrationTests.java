package com.example.messaging.inbox;

import org.springframework.boot.test.context.SpringBootTest;

import com.example.messaging.relay.RelayTestApplication;
import com.example.testsupport.FreshInfrastructure;

/** The backlog drained one transaction per delivery (INBOX_BATCH_SIZE=1). */
@SpringBootTest(classes = { RelayTestApplication.class, InboxDrainBenchmark.Handlers.class }, properties = {
        "spring.application.name=inbox-drain-single", "messaging.inbox.batch.size=1",
        "messaging.relay.exchanges=order.events,risk.events",
        "spring.cloud.stream.bindings.inbox-in-0.consumer.auto-startup=false" })
@FreshInfrastructure
class InboxDrainOneAtATimeBenchmarkIntegrationTests extends InboxDrainBenchmark {
}
