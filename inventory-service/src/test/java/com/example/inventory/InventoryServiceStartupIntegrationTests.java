package com.example.inventory;

import java.util.List;

import org.springframework.boot.test.context.SpringBootTest;

import com.example.testsupport.AuthorizationMatrix;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.ServiceStartupContract;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@FreshInfrastructure
class InventoryServiceStartupIntegrationTests extends ServiceStartupContract {

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
