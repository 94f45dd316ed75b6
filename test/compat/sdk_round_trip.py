"""Emits aspects with the reference's REST emitter and reads them back with its graph client.
The token, if any, comes from DATAHUB_GMS_TOKEN, as the reference's CLI configuration gives it."""
import json
import os
import sys

import datahub.emitter.mce_builder as builder
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.emitter.rest_emitter import DatahubRestEmitter
from datahub.ingestion.graph.client import DataHubGraph, DatahubClientConfig
from datahub.metadata.schema_classes import (
    DatasetPropertiesClass,
    OwnerClass,
    OwnershipClass,
    OwnershipTypeClass,
)

server, name = sys.argv[1], sys.argv[2]
token = os.environ.get("DATAHUB_GMS_TOKEN") or None
emitter = DatahubRestEmitter(server, token=token)
emitter.test_connection()
urn = builder.make_dataset_urn("hive", name, "PROD")
emitter.emit(MetadataChangeProposalWrapper(entityUrn=urn, aspect=DatasetPropertiesClass(description="from python", customProperties={"team": "sdk"})))
emitter.emit(MetadataChangeProposalWrapper(entityUrn=urn, aspect=OwnershipClass(owners=[OwnerClass(owner=builder.make_user_urn("jdoe"), type=OwnershipTypeClass.DATAOWNER)])))
graph = DataHubGraph(DatahubClientConfig(server=server, token=token))
props = graph.get_aspect(urn, DatasetPropertiesClass)
owners = graph.get_aspect(urn, OwnershipClass)
print(json.dumps({
    "description": props.description if props else None,
    "customProperties": props.customProperties if props else None,
    "owners": [o.owner for o in owners.owners] if owners else None,
    "exists": graph.exists(urn),
}))
