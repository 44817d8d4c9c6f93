package com.example.order.web;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * Orders as {@code GET /orders?status=...} answers them: a JSON array of order bodies, oldest first. A named type
 * so that the description names it: a client generator then has a class for it (docs/contract.md, "Other
 * endpoints").
 */
// ArrayList's isEmpty() would otherwise appear in the description as a property of the array.
@JsonIgnoreProperties("empty")
@Schema(name = "OrderList", description = "Orders, oldest first")
final class OrderList extends ArrayList<OrderResponse> {

    private static final long serialVersionUID = 1L;

    OrderList(List<OrderResponse> orders) {
        super(orders);
    }
}
