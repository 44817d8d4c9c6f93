package com.example.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ThrowawayRabbitTests {

    @Test
    void readsAMemoryAlarmFromWhatTheNodeLists() {
        // rabbitmqctl eval 'rabbit_alarm:get_alarms().' on a node with the alarm raised, and without.
        assertThat(ThrowawayRabbit.listsMemoryAlarm("[{{resource_limit,memory,'e2e-1a2b3c4d@localhost'},[]}]\n"))
                .isTrue();
        assertThat(ThrowawayRabbit.listsMemoryAlarm("[{{resource_limit, memory,\n   'e2e-1a2b3c4d@localhost'},\n  []}]"))
                .isTrue();
        assertThat(ThrowawayRabbit.listsMemoryAlarm("[]\n")).isFalse();
        assertThat(ThrowawayRabbit.listsMemoryAlarm("[{{resource_limit,disk,'e2e-1a2b3c4d@localhost'},[]}]"))
                .isFalse();
    }
}
