package com.example.paymentsimulator.web;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.paymentsimulator.FaultInjection;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;

/** Test control, without the API key: a real provider has no such endpoint. */
@RestController
@RequestMapping(path = "/faults", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "faults", description = "Test control: how the simulator misbehaves on /charges (no API key)")
class FaultController {

    private final FaultInjection faults;

    FaultController(FaultInjection faults) {
        this.faults = faults;
    }

    @Operation(operationId = "setFaults", summary = "Set the faults for later requests",
            description = "Replaces all four knobs; one left out is 0. Kept in memory: a restart turns them off.")
    @ApiResponse(responseCode = "200", description = "The faults now in force")
    @PutMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    FaultsResponse set(@Valid @RequestBody FaultsRequest request) {
        faults.set(request.faults());
        return FaultsResponse.of(faults.current(), faults.injected());
    }

    @Operation(operationId = "getFaults", summary = "Get the faults in force")
    @ApiResponse(responseCode = "200", description = "The faults in force")
    @GetMapping
    FaultsResponse get() {
        return FaultsResponse.of(faults.current(), faults.injected());
    }
}
