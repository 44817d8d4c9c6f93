package com.example.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import com.example.messaging.inbox.InboxProperties;
import com.example.testsupport.AuthorizationMatrix;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.ServiceStartupContract;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@FreshInfrastructure
class InventoryServiceStartupIntegrationTests extends ServiceStartupContract {

    @Autowired
    InboxProperties inbox;

    /** Every reservation locks its skus' stock rows: more lanes would only queue for them inside PostgreSQL. */
    @Test
    void appliesItsEventsInOneLaneUnlessToldOtherwise() {
        assertThat(inbox.batch().lanes()).isEqualTo(1);
    }

    @Override
    protected List<String> ownTables() {
        return List.of("stock", "reservations");
    }

    @Override
    protected List<AuthorizationMatrix.Endpoint> operatorEndpoints() {
        return List.of(AuthorizationMatrix.Endpoint.put("/stock/1", "{\"available\": 1}"),
                AuthorizationMatrix.Endpoint.get("/stock/1"), AuthorizationMatrix.Endpoint.get("/reservations/1"));
    }
}
