"""`POST /v1/lps/search`: the products a back office posts, their limits, and the jobs the gateway answers with."""

from typing import Any

from marshmallow import Schema, fields, pre_load, validate

from schemas.codes import JobStatus, Priority
from schemas.envelope import EnvelopeSchema
from schemas.offers import SourceName
from schemas.validation import FullMatch, StrictSchema, Text, VisibleText

#: Matched against the whole value (FullMatch): `$` alone also matches before a trailing newline. Kept in the
#: form JSON Schema (ECMA-262) reads the same way, since the OpenAPI document shows it as the field's `pattern`.
PRODUCT_CODE_PATTERN = r"^[A-Za-z0-9._:-]{1,64}$"


MAX_PRODUCTS_PER_REQUEST = 1000


MAX_BODY_BYTES = 1024 * 1024


MAX_TARGET_PRICE = 10**13


#: Source names a product may ask for; the workers own their implementations.
SOURCE_NAMES = tuple(SourceName)


class BatchTooLarge(Exception):
    """More products in one request than MAX_PRODUCTS_PER_REQUEST (HTTP_INVALID_CLIENT_REQUEST)."""


class ProductSchema(StrictSchema):
    product_code = Text(required=True, validate=FullMatch(PRODUCT_CODE_PATTERN))
    keyword = Text(
        required=True,
        # [\s\S] rather than (?s): an inline flag is Python-only, the document's pattern must read the same in ECMA-262.
        validate=[validate.Length(min=1, max=200), VisibleText()],
        metadata={"example": "아이폰 15 128GB"},
    )
    model_no = Text(load_default=None, validate=validate.Length(min=1, max=100))
    # Bounded: MongoDB stores 64-bit integers, and no product costs ten trillion won.
    target_price = fields.Integer(load_default=None, strict=True, validate=validate.Range(min=1, max=MAX_TARGET_PRICE))
    sources = fields.List(
        Text(validate=validate.OneOf(SOURCE_NAMES)),
        load_default=None,
        validate=validate.Length(min=1, max=len(SOURCE_NAMES)),
        metadata={
            "description": "sources to search (default: all the deployment enables); only those in "
            "LPS_SEARCH_SOURCES are accepted, others are refused with 400 / result 101"
        },
    )


class SearchRequestSchema(StrictSchema):
    products = fields.List(
        fields.Nested(ProductSchema),
        required=True,
        validate=validate.Length(min=1, max=MAX_PRODUCTS_PER_REQUEST),
    )
    priority = fields.Enum(Priority, by_value=True, load_default=None)

    @pre_load
    def refuse_oversized_batch(self, data: Any, **_: Any) -> Any:
        # Checked before field validation: an oversized batch is a client error of its own kind (419).
        if isinstance(data, dict):
            products = data.get("products")
            if isinstance(products, list) and len(products) > MAX_PRODUCTS_PER_REQUEST:
                raise BatchTooLarge(f"at most {MAX_PRODUCTS_PER_REQUEST} products per request")
        return data


class EnqueuedJobSchema(Schema):
    product_code = fields.String(required=True)
    job_id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf([s.name for s in JobStatus]))
    duplicate = fields.Boolean(required=True)
    keyword_ignored = fields.Boolean(
        metadata={
            "description": "true when this product's keyword was not used: the product already had an active "
            "search with another keyword (that job is answered), or its code came earlier in the request"
        }
    )
    enqueued = fields.Boolean(
        metadata={"description": "false when the broker did not confirm; the reconciler publishes it later"}
    )


class SearchResponseSchema(EnvelopeSchema):
    jobs = fields.List(fields.Nested(EnqueuedJobSchema), required=True)
