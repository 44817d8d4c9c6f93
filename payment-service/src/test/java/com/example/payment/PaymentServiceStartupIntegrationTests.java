package com.example.payment;

import java.util.List;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.TestPropertySource;

import com.example.testsupport.AuthorizationMatrix;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.ServiceStartupContract;

/** No payment is asked for here, so the provider is never called: its address only has to be well-formed. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@FreshInfrastructure
@TestPropertySource(properties = { "payment.provider.url=http://localhost:9", "payment.provider.api-key=unused" })
class PaymentServiceStartupIntegrationTests extends ServiceStartupContract {

    @Override
    protected List<String> ownTables() {
        return List.of("payments");
    }

    @Override
    protected List<AuthorizationMatrix.Endpoint> operatorEndpoints() {
        return List.of(AuthorizationMatrix.Endpoint.get("/payments/1"));
    }
}
