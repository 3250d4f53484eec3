# SPDX-License-Identifier: MIT
include $(sort $(wildcard $(BR2_EXTERNAL_FWLOAD_PATH)/package/*/*.mk))
